import TerminalUI
extension ConsoleController {
    /// A key while a text field or dialog is open.
    mutating func overlayKey(_ key: Key) -> [ConsoleEffect] {
        switch model.overlay {
        case .filter(let line): return filterKey(key, line)
        case .command(let line, let completions): return commandKey(key, line, completions: completions)
        case .confirm(let dialog): return confirmKey(key, dialog)
        case nil: return []
        }
    }

    /// The `/` field: each edit filters at once (a filter that does not parse yet leaves the
    /// last one in force and says why); Enter keeps it, Esc goes back to the filter before.
    private mutating func filterKey(_ key: Key, _ line: InputLine) -> [ConsoleEffect] {
        var line = line
        if key == .up || key == .down {
            if line.recall(key == .up ? 1 : -1, in: model.history.filters) {
                model.overlay = .filter(line)
                return applyFilter(line.field.text)
            }
            return []
        }
        switch line.field.handle(key) {
        case .submitted:
            model.overlay = nil
            model.history.add(line.field.text, command: false)
            let effects = applyFilter(line.field.text)
            if model.status?.isError == true {
                // A filter that does not parse keeps the field open with the reason.
                model.overlay = .filter(line)
            }
            return effects
        case .cancelled:
            model.overlay = nil
            model.status = nil
            return applyFilter(line.original)
        case .edited:
            model.overlay = .filter(line)
            return applyFilter(line.field.text)
        case .ignored:
            return []
        }
    }

    /// Applies filter text to the current Entries view (an error in it goes to the status
    /// line; the last one goes once the text parses), searches the Detail view's value, or
    /// narrows the keyspace level to the names that match.
    private mutating func applyFilter(_ text: String) -> [ConsoleEffect] {
        guard model.current.view is EntriesView || model.current.view is DetailView || model.current.view is KeyspaceView
        else { return [] }
        model.status = nil
        return withCurrentView { view, context in
            if var detail = view as? DetailView {
                detail.searchValue(text, in: context)
                view = detail
                return []
            }
            if var keyspace = view as? KeyspaceView {
                keyspace.applySearch(text)
                view = keyspace
                return []
            }
            guard var entries = view as? EntriesView else { return [] }
            let applied = entries.applyFilter(text, context: &context)
            let effects = applied ? entries.pageLoads(in: context) : []
            view = entries
            return effects
        }
    }

    /// The `:` field: Tab completes, ↑/↓ recall, Enter runs.
    private mutating func commandKey(_ key: Key, _ line: InputLine, completions: [String]) -> [ConsoleEffect] {
        var line = line
        switch key {
        case .tab:
            let (text, candidates) = ConsoleCommands.complete(line.field.text, context: completionContext)
            line.field.set(text)
            model.overlay = .command(line, completions: candidates)
            return []
        case .up, .down:
            _ = line.recall(key == .up ? 1 : -1, in: model.history.commands)
            model.overlay = .command(line, completions: [])
            return []
        default:
            break
        }
        switch line.field.handle(key) {
        case .submitted:
            model.overlay = nil
            model.history.add(line.field.text, command: true)
            return execute(line.field.text)
        case .cancelled:
            model.overlay = nil
        case .edited:
            model.overlay = .command(line, completions: [])
        case .ignored:
            model.overlay = .command(line, completions: completions)
        }
        return []
    }

    /// What command completion offers: namespaces, themes, and the tags of the store (and of
    /// the rows in view, where the store cannot list its tags).
    var completionContext: ConsoleCommands.Context {
        let tags = Set((model.overview?.tags ?? []) + (model.current.entries?.window.heldRows.flatMap(\.tags) ?? []))
        return ConsoleCommands.Context(
            namespaces: model.namespaceNames, themes: settings.themes.themeNames, tags: tags.sorted())
    }
}
