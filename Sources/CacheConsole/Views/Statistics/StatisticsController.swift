extension ConsoleController {
    /// Keys on the Statistics view: choose a namespace (the first row is all of them), switch
    /// panels.
    mutating func statisticsAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.statistics else { return [] }
        if let delta = ListMotion.delta(action, page: pageRows) {
            view.selection = ListMotion.clamp(view.selection + delta, count: model.namespaceNames.count + 1)
        } else if action == .nextPane || action == .previousPane {
            view.pane = view.pane == .namespaces ? .graphs : .namespaces
        } else {
            return []
        }
        model.current.content.statistics = view
        return []
    }

    /// A Statistics view with the namespace in view (if any) selected.
    func statisticsView() -> StatisticsView {
        var view = StatisticsView()
        if let namespace = model.current.content.namespace, let index = model.namespaceNames.firstIndex(of: namespace) {
            view.selection = index + 1
        }
        return view
    }

    /// Switches the statistics window and reads it.
    mutating func cycleWindow() -> [ConsoleEffect] {
        guard var view = model.current.content.statistics else { return [] }
        view.window = view.window.next
        view.snapshot = nil
        model.current.content.statistics = view
        return [.load([.statistics(view: model.current.id, window: view.window)])]
    }
}
