import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// One `:` command: its names, how it is used, what its arguments complete to, and what it
/// does. ``ConsoleCommands/all`` is the single registry that running, completion and the
/// help read.
struct ConsoleCommand: Sendable {
    /// One way to use a command, for the help.
    struct Usage: Sendable {
        /// `ns NAME`.
        var text: String
        /// What it does.
        var summary: String
    }

    /// What the arguments complete to.
    enum Completion: Sendable {
        case none
        case namespaces
        case namespacesOrAll
        case themes
        case selectors
        case export
    }

    /// The name.
    var name: String
    /// Other names that run it.
    var aliases: [String] = []
    /// How it is used.
    var usage: [Usage]
    /// What the arguments complete to.
    var completion: Completion = .none
    /// Runs it with the words after its name.
    var run: @Sendable (inout ConsoleController, [String]) -> [ConsoleEffect]
}

/// The registry of `:` commands.
enum ConsoleCommands {
    /// What completion draws on.
    struct Context {
        /// Namespace names.
        var namespaces: [String]
        /// Theme names.
        var themes: [String]
        /// Tags of the rows in view.
        var tags: [String]
    }

    static let all: [ConsoleCommand] = [
        ConsoleCommand(
            name: "ns", aliases: ["namespace"], usage: [.init(text: "ns NAME", summary: "Open a namespace's entries")],
            completion: .namespaces
        ) { console, arguments in
            guard let name = arguments.first else { return console.usage("ns NAME") }
            guard console.isKnownNamespace(name) else { return [] }
            let entry = console.model.makeEntry(EntriesView(namespace: name))
            console.navigate { $0 = [$0[0], entry] }
            return console.currentLoads()
        },
        ConsoleCommand(
            name: "sweep", usage: [.init(text: "sweep [NAME]", summary: "Sweep expired entries")],
            completion: .namespaces
        ) { console, arguments in
            if let name = arguments.first, !console.isKnownNamespace(name) { return [] }
            return console.startAction(
                .target(.sweep(namespace: arguments.first)), title: "sweep \(arguments.first ?? "all")")
        },
        ConsoleCommand(
            name: "clear", usage: [.init(text: "clear NAME|all", summary: "Clear a namespace, or all")],
            completion: .namespacesOrAll
        ) { console, arguments in
            guard let name = arguments.first ?? console.model.current.view.subjectNamespace else {
                return console.usage("clear NAME, or clear all")
            }
            guard name == "all" || console.isKnownNamespace(name) else { return [] }
            return console.startAction(
                .target(name == "all" ? .clearAll : .clear(namespace: name)), title: "clear \(name)")
        },
        ConsoleCommand(
            name: "invalidate",
            usage: [
                .init(text: "invalidate tag=T [ns=N]", summary: "Invalidate a tag"),
                .init(text: "invalidate prefix=P [ns=N]", summary: "Invalidate by key prefix"),
                .init(text: "invalidate key=K [ns=N]", summary: "Invalidate one key"),
            ], completion: .selectors
        ) { console, arguments in console.invalidateCommand(arguments) },
        ConsoleCommand(
            name: "ttl",
            usage: [
                .init(text: "ttl now|never|1h|+30m", summary: "New expiry: selected, marked or matching"),
                .init(text: "ttl CHANGE tag=T [ns=N]", summary: "New expiry for a tag (or prefix=, key=)"),
            ], completion: .selectors
        ) { console, arguments in console.expiryCommand(arguments) },
        ConsoleCommand(
            name: "expire",
            usage: [
                .init(text: "expire [tag=T] [ns=N]", summary: "Expire now: selected, marked or matching")
            ], completion: .selectors
        ) { console, arguments in console.expiryCommand(["now"] + arguments) },
        ConsoleCommand(
            name: "export",
            usage: [
                .init(text: "export FILE", summary: "Marked, filtered or all entries as JSON Lines"),
                .init(text: "export FILE ns=N [filter]", summary: "A namespace's (matching) entries"),
            ], completion: .export
        ) { console, arguments in console.exportCommand(arguments, replacing: false) },
        ConsoleCommand(
            name: "export!",
            usage: [.init(text: "export! FILE …", summary: "Export, replacing FILE if it exists")], completion: .export
        ) { console, arguments in console.exportCommand(arguments, replacing: true) },
        ConsoleCommand(
            name: "import",
            usage: [.init(text: "import FILE [NAME]", summary: "Import what an export wrote (into NAME)")]
        ) { console, arguments in
            guard let path = arguments.first, arguments.count <= 2 else { return console.usage("import FILE [NAMESPACE]") }
            let namespace = arguments.count == 2 ? arguments[1] : nil
            if let namespace, !console.isKnownNamespace(namespace) { return [] }
            return console.startAction(.importFile(path: path, namespace: namespace), title: "import of \(path)")
        },
        ConsoleCommand(
            name: "compact",
            usage: [.init(text: "compact", summary: "Give free pages back to disk")]
        ) { console, _ in console.compactCommand() },
        ConsoleCommand(name: "undo", usage: [.init(text: "undo", summary: "Undo the last action")]) { console, _ in
            guard let undo = console.model.lastUndo else {
                console.report("Nothing to undo in this session.")
                return []
            }
            return console.startUndo(undo.auditID)
        },
        ConsoleCommand(
            name: "theme", usage: [.init(text: "theme NAME", summary: "Switch the colour theme")], completion: .themes
        ) { console, arguments in
            guard let name = arguments.first else { return console.usage("theme NAME") }
            do throws(ConfigError) {
                let theme = try console.settings.themes.theme(named: name)
                console.model.themeName = name
                console.report("Theme \(name).")
                return [.applyTheme(theme)]
            } catch {
                console.report(error.description, isError: true)
                return []
            }
        },
        ConsoleCommand(
            name: "refresh", usage: [.init(text: "refresh SECONDS", summary: "Set the refresh interval")]
        ) { console, arguments in
            guard let text = arguments.first, let seconds = Double(text), seconds.isFinite else {
                return console.usage("refresh SECONDS")
            }
            let interval = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            console.model.live.interval = min(
                max(interval, LiveState.intervals.lowerBound), LiveState.intervals.upperBound)
            console.report("Refreshing every \(TimeText.interval(console.model.live.interval)).")
            return []
        },
        ConsoleCommand(name: "overview", usage: [.init(text: "overview", summary: "Go to the Overview")]) {
            console, _ in console.perform(.showOverview)
        },
        ConsoleCommand(name: "timeline", usage: [.init(text: "timeline", summary: "Show the expiry timeline")]) {
            console, _ in console.perform(.showTimeline)
        },
        ConsoleCommand(
            name: "stats", aliases: ["statistics"], usage: [.init(text: "stats", summary: "Show the statistics graphs")]
        ) { console, _ in console.perform(.showStatistics) },
        ConsoleCommand(name: "audit", usage: [.init(text: "audit", summary: "Show the audit log")]) { console, _ in
            console.perform(.showAudit)
        },
        ConsoleCommand(
            name: "keyspace", usage: [.init(text: "keyspace [PREFIX]", summary: "Browse the raw Redis keyspace")]
        ) { console, arguments in
            guard console.isOverRedis(":keyspace") else { return [] }
            let prefix = RedisKeyspace.bytes(ofTyped: arguments.joined(separator: " "))
            return console.show(KeyspaceView(prefix: prefix))
        },
        ConsoleCommand(name: "key", usage: [.init(text: "key KEY", summary: "Open a Redis key by its name")]) {
            console, arguments in
            guard console.isOverRedis(":key") else { return [] }
            guard !arguments.isEmpty else { return console.usage("key KEY") }
            let text = arguments.joined(separator: " ")
            return console.show(RedisKeyView(key: RedisKeyspace.bytes(ofTyped: text), keyText: text))
        },
        ConsoleCommand(
            name: "topology", usage: [.init(text: "topology", summary: "Show the Redis nodes and where namespaces live")]
        ) { console, _ in console.perform(.showTopology) },
        ConsoleCommand(
            name: "slowlog", usage: [.init(text: "slowlog", summary: "Show every Redis node's slow log and latency")]
        ) { console, _ in console.perform(.showSlowLog) },
        ConsoleCommand(name: "mouse", usage: [.init(text: "mouse", summary: "Mouse on / off")]) { console, _ in
            console.toggleMouse()
        },
        ConsoleCommand(name: "help", usage: [.init(text: "help", summary: "Show keys and commands")]) { console, _ in
            console.model.current.isHelp ? [] : console.show(HelpView())
        },
        ConsoleCommand(name: "q", aliases: ["quit"], usage: [.init(text: "q", summary: "Quit")]) { console, _ in
            console.quit()
        },
    ]

    /// The commands a Redis keyspace console offers (the others work on cache files).
    static let keyspaceNames: Set<String> = redisNames.union(["theme", "refresh", "mouse", "help", "q"])

    /// The commands only a console over Redis offers.
    static let redisNames: Set<String> = ["keyspace", "key", "topology", "slowlog"]

    /// The commands the console offers: all of them, or a keyspace console's; `:keyspace`,
    /// `:key`, `:topology` and `:slowlog` only over Redis.
    static func available(isKeyspace: Bool, hasKeyspace: Bool = false) -> [ConsoleCommand] {
        (isKeyspace ? all.filter { keyspaceNames.contains($0.name) } : all).filter {
            !redisNames.contains($0.name) || hasKeyspace || isKeyspace
        }
    }

    /// The command called `name` (or one of its aliases).
    static func named(_ name: String) -> ConsoleCommand? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// `text` completed as far as it is unambiguous, and the candidates for its last word.
    static func complete(_ text: String, context: Context) -> (text: String, candidates: [String]) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let last = words.last ?? ""
        var options: [String] = []
        var valuePrefix = ""
        if words.count <= 1 {
            // `export!` is `export` said firmly: typed, not offered.
            options = all.map(\.name).filter { !$0.hasSuffix("!") }
        } else {
            switch named(words[0])?.completion ?? .none {
            case .none: break
            case .namespaces: options = context.namespaces
            case .namespacesOrAll: options = context.namespaces + ["all"]
            case .themes: options = context.themes
            case .selectors, .export:
                for (prefix, values) in [("ns=", context.namespaces), ("tag=", context.tags)]
                where last.hasPrefix(prefix) {
                    valuePrefix = prefix
                    options = values
                }
                if valuePrefix.isEmpty {
                    options = named(words[0])?.completion == .export ? ["ns="] : ["tag=", "prefix=", "key=", "ns="]
                }
            }
        }
        let typed = String(last.dropFirst(valuePrefix.count))
        let candidates = options.filter { $0.hasPrefix(typed) }
        guard let first = candidates.first else { return (text, []) }
        let common = candidates.dropFirst().reduce(first) { $0.commonPrefix(with: $1) }
        let finished = candidates.count == 1 && !common.hasSuffix("=")
        let completed = words.dropLast() + [valuePrefix + common + (finished ? " " : "")]
        return (completed.joined(separator: " "), candidates.count == 1 ? [] : candidates)
    }
}

extension ConsoleController {
    /// Runs a `:` command line.
    mutating func execute(_ line: String) -> [ConsoleEffect] {
        let words = line.split(separator: " ").map(String.init)
        guard let name = words.first else { return [] }
        guard let command = ConsoleCommands.named(name) else {
            report("Unknown command '\(name)' (Tab completes; :help lists the commands).", isError: true)
            return []
        }
        if model.isKeyspace && !ConsoleCommands.keyspaceNames.contains(command.name) {
            report(":\(command.name) is for cache files; a Redis keyspace is browsed read-only.", isError: true)
            return []
        }
        return command.run(&self, Array(words.dropFirst()))
    }

    /// Whether the console is over Redis; reports that `command` is not, when not.
    mutating func isOverRedis(_ command: String) -> Bool {
        guard model.hasKeyspace else {
            report("\(command) is for Redis; this console shows a cache file.", isError: true)
            return false
        }
        return true
    }

    /// Reports how a command is used.
    /// Whether the file has a namespace `name` (any name while the overview is not loaded:
    /// the library refuses an unknown one then); reports it when not.
    mutating func isKnownNamespace(_ name: String) -> Bool {
        guard model.overview == nil || model.namespaceNames.contains(name) else {
            report("No namespace named '\(name)' (Tab completes the names).", isError: true)
            return false
        }
        return true
    }

    mutating func usage(_ text: String) -> [ConsoleEffect] {
        report("Usage: :\(text)", isError: true)
        return []
    }

    fileprivate mutating func invalidateCommand(_ arguments: [String]) -> [ConsoleEffect] {
        let usageText = "invalidate tag=T|prefix=P|key=K [ns=NAME]"
        guard let selector = parseSelector(arguments, usage: usageText) else { return [] }
        return startAction(.target(.invalidate(selector)), title: "invalidate \(selector)")
    }

    /// `:ttl CHANGE [selector]` (and `:expire`, which is `:ttl now`): without a selector, on the
    /// marked entries of the Entries view in view (all matching when `*` marked them), else on
    /// its selected row.
    fileprivate mutating func expiryCommand(_ arguments: [String]) -> [ConsoleEffect] {
        let usageText = "ttl now|never|1h|+30m [tag=T|prefix=P|key=K] [ns=NAME]"
        guard let text = arguments.first else { return usage(usageText) }
        let change: ExpiryChange
        do {
            change = try ExpiryChange(parsing: text)
        } catch {
            report("\(error.description) (\(usageText))", isError: true)
            return []
        }
        let rest = Array(arguments.dropFirst())
        if !rest.isEmpty {
            guard let selector = parseSelector(rest, usage: usageText) else { return [] }
            return startAction(.target(.expiry(selector: selector, change: change)), title: "\(change) of \(selector)")
        }
        guard let entries = model.current.entries else {
            return usage("\(usageText) (or open a namespace and select entries)")
        }
        if entries.marksAllMatching {
            return startAction(
                .matching(namespace: entries.namespace, filter: entries.filter, expiry: change),
                title: "\(change) of the matching entries")
        }
        let keys =
            entries.marks.isEmpty ? entries.window.selectedRow.map { [$0.key] } ?? [] : entries.marks.values.sorted()
        guard !keys.isEmpty else { return usage(usageText) }
        let selector: InvalidationSelector =
            keys.count == 1
            ? .key(namespace: entries.namespace, key: keys[0]) : .keys(namespace: entries.namespace, keys: keys)
        return startAction(.target(.expiry(selector: selector, change: change)), title: "\(change) of \(selector)")
    }

    /// `tag=T`, `prefix=P` or `key=K` with an optional `ns=N` (default: the namespace in view);
    /// `nil` after reporting what is wrong.
    private mutating func parseSelector(_ arguments: [String], usage usageText: String) -> InvalidationSelector? {
        var values: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), argument[..<equals] != "" else {
                _ = usage(usageText)
                return nil
            }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        let namespace = values["ns"] ?? model.current.view.subjectNamespace
        if let namespace, !isKnownNamespace(namespace) { return nil }
        if let tag = values["tag"], !tag.isEmpty { return .tag(tag, namespace: namespace) }
        if let prefix = values["prefix"], let namespace { return .prefix(namespace: namespace, prefix: prefix) }
        if let key = values["key"], let namespace { return .key(namespace: namespace, key: key) }
        _ = usage("\(usageText) (prefix and key need a namespace)")
        return nil
    }

    /// `:compact`: gives the file's free pages and WAL back, showing free pages given back of
    /// those there were (Esc stops after the current 8 MB step). It removes no entry, so it
    /// asks nothing.
    fileprivate mutating func compactCommand() -> [ConsoleEffect] {
        guard mayStart("compacting is") else { return [] }
        let stop = ActionStop()
        model.busy = BusyState(
            title: "Compacting (free pages given back)", since: model.now, isWriting: true, stop: stop)
        return [.compact(stop: stop)]
    }

    /// `:export FILE [ns=N] [filter]`: the marked entries of the Entries view in view, else
    /// those its filter matches (or all of its namespace), or those of `ns=N` matching the
    /// filter given.
    fileprivate mutating func exportCommand(_ arguments: [String], replacing: Bool) -> [ConsoleEffect] {
        guard let path = arguments.first else { return usage("export FILE [ns=NAME] [filter]") }
        var rest = Array(arguments.dropFirst())
        var request: ExportRequest
        if let index = rest.firstIndex(where: { $0.hasPrefix("ns=") }) {
            let namespace = String(rest.remove(at: index).dropFirst(3))
            request = ExportRequest(
                namespace: namespace, filter: rest.joined(separator: " "), path: path, replacing: replacing)
        } else if let entries = model.current.entries {
            request = ExportRequest(namespace: entries.namespace, filter: entries.filter, path: path, replacing: replacing)
            if !entries.marks.isEmpty && !entries.marksAllMatching {
                request.keys = entries.marks.values.sorted()
            }
        } else {
            return usage("export FILE ns=NAME [filter] (or open a namespace first)")
        }
        guard model.busy == nil else {
            report("Another action is still running; wait for it to finish.", isError: true)
            return []
        }
        model.busy = BusyState(title: "Exporting to \(request.path)", since: model.now)
        return [.export(request)]
    }
}

extension String {
    /// The longest start this string shares with `other`.
    fileprivate func commonPrefix(with other: String) -> String {
        String(zip(self, other).prefix { $0 == $1 }.map(\.0))
    }
}
