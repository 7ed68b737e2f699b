extension ConsoleController {
    /// Keys on the Overview: move in the focused panel, open a namespace, switch panels,
    /// sweep the store, clear the selected namespace.
    mutating func overviewAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.overview else { return [] }
        let namespaces = view.ordered(model.overview?.namespaces ?? [])
        let selected = namespaces.indices.contains(view.selection) ? namespaces[view.selection].name : nil
        if view.pane == .processes, let delta = ListMotion.delta(action, page: pageRows) {
            let count = model.overview?.processes.count ?? 0
            view.processSelection = ListMotion.clamp(view.processSelection + delta, count: count)
            model.current.content.overview = view
            return []
        }
        if let delta = ListMotion.delta(action, page: pageRows) {
            view.selection = ListMotion.clamp(view.selection + delta, count: namespaces.count)
            view.selectedName = namespaces.indices.contains(view.selection) ? namespaces[view.selection].name : nil
            view.scroll = OverviewScreen.scroll(
                view.scroll, selection: view.selection, height: OverviewScreen.listHeight(for: size))
            model.current.content.overview = view
            return []
        }
        if view.pane == .processes && Self.namespaceActions.contains(action) {
            report("The process list has the focus: \(label(.nextPane)) goes back to the namespaces.")
            return []
        }
        switch action {
        case .drillIn:
            guard let selected else { return [] }
            return show(.entries(EntriesView(namespace: selected)))
        case .nextPane, .previousPane:
            view.pane = view.pane == .namespaces ? .processes : .namespaces
            model.current.content.overview = view
            return []
        case .sortNext, .reverseSort:
            if action == .sortNext {
                view.sort = view.sort.next
                view.descending = view.sort != .name
            } else {
                view.descending.toggle()
            }
            let ordered = view.ordered(namespaces)
            view.selection = ordered.firstIndex { $0.name == selected } ?? 0
            view.scroll = OverviewScreen.scroll(
                0, selection: view.selection, height: OverviewScreen.listHeight(for: size))
            model.current.content.overview = view
            return []
        case .sweep:
            return startAction(.target(.sweep(namespace: nil)), title: "sweep all")
        case .clearNamespace:
            guard let selected else { return [] }
            return startAction(.target(.clear(namespace: selected)), title: "clear \(selected)")
        case .invalidate, .filter, .toggleMark, .markRange, .markAllMatching:
            report("Open a namespace (\(label(.drillIn))) to filter, mark and invalidate its entries.")
            return []
        default:
            return []
        }
    }
}

extension ConsoleController {
    /// Overview keys that act on the selected namespace, so not while the processes have focus.
    static let namespaceActions: Set<KeyAction> = [.drillIn, .clearNamespace, .sortNext, .reverseSort]
}

/// How the movement keys move a selection in a list.
enum ListMotion {
    /// The rows `action` moves by (`nil` for other actions); top and bottom move by a lot
    /// and are clamped.
    static func delta(_ action: KeyAction, page: Int) -> Int? {
        switch action {
        case .moveUp: -1
        case .moveDown: 1
        case .pageUp: -page
        case .pageDown: page
        case .top: Int.min / 2
        case .bottom: Int.max / 2
        default: nil
        }
    }

    /// `index` within a list of `count` rows.
    static func clamp(_ index: Int, count: Int) -> Int {
        max(0, min(index, count - 1))
    }
}
