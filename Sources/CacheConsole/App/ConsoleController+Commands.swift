import CacheCore

extension ConsoleController {
    /// What command completion offers.
    var commandContext: Commands.Context {
        Commands.Context(namespaces: model.namespaceNames, themes: settings.themes.themeNames)
    }

    /// Runs a `:` command line.
    mutating func execute(_ line: String) -> [ConsoleEffect] {
        let words = line.split(separator: " ").map(String.init)
        guard let command = words.first else { return [] }
        let arguments = Array(words.dropFirst())
        switch command {
        case "q", "quit": return quit()
        case "ns", "namespace":
            guard let name = arguments.first else { return usage("ns NAME") }
            guard isKnownNamespace(name) else { return [] }
            let view = model.makeView(.entries(EntriesView(namespace: name)))
            navigate { $0 = [$0[0], view] }
            return entriesPageLoads()
        case "sweep":
            if let name = arguments.first, !isKnownNamespace(name) { return [] }
            return startAction(.target(.sweep(namespace: arguments.first)), title: "sweep \(arguments.first ?? "all")")
        case "clear":
            guard let name = arguments.first ?? model.current.content.namespace else {
                return usage("clear NAME, or clear all")
            }
            guard name == "all" || isKnownNamespace(name) else { return [] }
            return startAction(.target(name == "all" ? .clearAll : .clear(namespace: name)), title: "clear \(name)")
        case "invalidate": return invalidateCommand(arguments)
        case "undo":
            guard let undo = model.lastUndo else {
                report("Nothing to undo in this session.")
                return []
            }
            return startUndo(undo.auditID)
        case "theme":
            guard let name = arguments.first else { return usage("theme NAME") }
            do {
                let theme = try settings.themes.theme(named: name)
                model.themeName = name
                report("Theme \(name).")
                return [.applyTheme(theme)]
            } catch {
                report(error.description, isError: true)
                return []
            }
        case "refresh":
            guard let text = arguments.first, let seconds = Double(text), seconds.isFinite else {
                return usage("refresh SECONDS")
            }
            let interval = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            model.live.interval = min(max(interval, LiveState.intervals.lowerBound), LiveState.intervals.upperBound)
            report("Refreshing every \(TimeText.interval(model.live.interval)).")
            return []
        case "overview":
            if model.views.count > 1 { navigate { $0.removeSubrange(1...) } }
            return reload()
        case "timeline": return show(.timeline(TimelineView(namespace: model.current.content.namespace)))
        case "stats", "statistics": return show(.statistics(StatisticsView()))
        case "audit": return show(.audit(AuditView()))
        case "help": return show(.help(HelpView()))
        case "mouse":
            model.mouseReporting.toggle()
            return [.setMouseReporting(model.mouseReporting)]
        default:
            report("Unknown command '\(command)' (Tab completes; :help lists the commands).", isError: true)
            return []
        }
    }

    private mutating func invalidateCommand(_ arguments: [String]) -> [ConsoleEffect] {
        var values: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), argument[..<equals] != "" else {
                return usage("invalidate tag=T|prefix=P|key=K [ns=NAME]")
            }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        let namespace = values["ns"] ?? model.current.content.namespace
        if let namespace, !isKnownNamespace(namespace) { return [] }
        let selector: InvalidationSelector
        if let tag = values["tag"], !tag.isEmpty {
            selector = .tag(tag, namespace: namespace)
        } else if let prefix = values["prefix"], let namespace {
            selector = .prefix(namespace: namespace, prefix: prefix)
        } else if let key = values["key"], let namespace {
            selector = .key(namespace: namespace, key: key)
        } else {
            return usage("invalidate tag=T|prefix=P|key=K [ns=NAME] (prefix and key need a namespace)")
        }
        return startAction(.target(.invalidate(selector)), title: "invalidate \(selector)")
    }

    /// Whether the file has a namespace `name` (any name while the overview is not loaded:
    /// the library refuses an unknown one then); reports it when not.
    private mutating func isKnownNamespace(_ name: String) -> Bool {
        guard model.overview == nil || model.namespaceNames.contains(name) else {
            report("No namespace named '\(name)' (Tab completes the names).", isError: true)
            return false
        }
        return true
    }

    private mutating func usage(_ text: String) -> [ConsoleEffect] {
        report("Usage: :\(text)", isError: true)
        return []
    }
}
