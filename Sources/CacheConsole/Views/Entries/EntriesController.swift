import CacheCore

extension ConsoleController {
    /// Keys on an Entries view: move through the pages, open an entry, sort, filter, mark,
    /// and invalidate, clear or sweep.
    mutating func entriesAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.entries else { return [] }
        let height = EntriesScreen.listHeight(for: size)
        switch action {
        case .moveUp, .moveDown, .pageUp, .pageDown:
            let delta = ListMotion.delta(action, page: max(1, height - 1)) ?? 0
            view.window.move(by: delta, height: height)
        case .top:
            if view.window.anchor == .top {
                view.window.select(0, height: height)
            } else {
                restart(&view, anchor: .top)
            }
        case .bottom:
            if view.window.anchor == .top && view.window.isComplete {
                view.window.select(view.window.knownCount - 1, height: height)
            } else if view.window.anchor == .bottom {
                view.window.select(-1, height: height)
            } else {
                restart(&view, anchor: .bottom)
            }
        case .drillIn:
            guard let row = view.window.selectedRow else { return [] }
            return show(.detail(DetailView(entryID: row.id, namespace: view.namespace, key: row.key)))
        case .toggleMark:
            guard let row = view.window.selectedRow else { return [] }
            view.marksAllMatching = false
            if view.marks.removeValue(forKey: row.id) == nil { view.marks[row.id] = row.key }
            view.markAnchor = view.window.selection
            view.window.move(by: 1, height: height)
        case .markRange:
            guard let anchor = view.markAnchor else {
                report("Mark a row first (\(label(.toggleMark))), then \(label(.markRange)) marks up to here.")
                return []
            }
            view.marksAllMatching = false
            let from = min(anchor, view.window.selection)
            let through = max(anchor, view.window.selection)
            for position in from...through {
                if let row = view.window.row(at: position) { view.marks[row.id] = row.key }
            }
            view.markAnchor = view.window.selection
        case .markAllMatching:
            view.marksAllMatching.toggle()
            view.marks = [:]
        case .back:
            view.marks = [:]
            view.marksAllMatching = false
            report("Marks cleared.")
        case .sortNext, .reverseSort:
            let (column, descending) = EntryColumn.shown(for: view.sort)
            let next = action == .sortNext ? column.nextSortable : column
            var sort = next.ascendingSort ?? EntrySort(.key)
            if action == .reverseSort && !descending { sort.descending.toggle() }
            view.sort = sort
            restart(&view, anchor: .top)
        case .filter:
            model.overlay = .filter(TextField(view.filter))
            model.status = nil
            return []
        case .invalidate:
            return invalidate(view)
        case .clearNamespace:
            return startAction(.target(.clear(namespace: view.namespace)), title: "clear \(view.namespace)")
        case .sweep:
            return startAction(.target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace)")
        default:
            return []
        }
        model.current.content.entries = view
        return entriesPageLoads()
    }

    /// Applies filter text typed in the `/` field (checked here, so a typo keeps the field
    /// open with the reason).
    mutating func applyFilter(_ text: String) -> [ConsoleEffect] {
        guard var view = model.current.content.entries else { return [] }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        do {
            _ = try EntryFilter(parsing: trimmed)
        } catch {
            model.overlay = .filter(TextField(text))
            report("Filter: \(error.description)", isError: true)
            return []
        }
        model.status = nil
        view.filter = trimmed
        view.marks = [:]
        view.marksAllMatching = false
        restart(&view, anchor: .top)
        model.current.content.entries = view
        return entriesPageLoads()
    }

    /// Starts the view's pages over from `anchor` (new order, filter or end).
    private func restart(_ view: inout EntriesView, anchor: EntriesWindow.Anchor) {
        view.generation += 1
        view.window = EntriesWindow(anchor: anchor)
        view.markAnchor = nil
        view.changedAt = [:]
        view.lastChange = [:]
    }

    private mutating func invalidate(_ view: EntriesView) -> [ConsoleEffect] {
        let namespace = view.namespace
        if view.marksAllMatching {
            let what = view.filter.isEmpty ? "every entry of \(namespace)" : "entries matching '\(view.filter)'"
            return startAction(.matching(namespace: namespace, filter: view.filter), title: what)
        }
        let keys = view.marks.isEmpty ? view.window.selectedRow.map { [$0.key] } ?? [] : view.marks.values.sorted()
        switch keys.count {
        case 0: return []
        case 1:
            return startAction(
                .target(.invalidate(.key(namespace: namespace, key: keys[0]))), title: "invalidate \(keys[0])")
        default:
            return startAction(
                .target(.invalidate(.keys(namespace: namespace, keys: keys))),
                title: "invalidate \(keys.count) entries")
        }
    }
}
