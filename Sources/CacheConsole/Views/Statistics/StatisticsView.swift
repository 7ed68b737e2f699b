import TerminalUI
/// The Statistics view: a namespace list and the graphs of the selected one.
package struct StatisticsView: ConsoleView {
    /// The panels Tab moves between.
    package enum Pane: Sendable, Hashable {
        /// The namespace list.
        case namespaces
        /// The graphs.
        case graphs
    }

    /// The window graphed.
    package internal(set) var window = StatisticsWindow.fiveMinutes
    /// The selected row of the list: 0 is every namespace together.
    package internal(set) var selection = 0
    /// The panel with focus.
    package internal(set) var pane = Pane.namespaces
    /// The telemetry as last read.
    package internal(set) var snapshot: StatisticsSnapshot?

    /// The graphs of `namespace` (`nil`: every namespace together), among `names`.
    init(namespace: String? = nil, among names: [String] = []) {
        if let namespace, let index = names.firstIndex(of: namespace) { selection = index + 1 }
    }

    package static let title = "Statistics"

    package static let bindings: [KeyBinding<StatisticsView>] =
        [
            KeyBinding(.cycleWindow, hint: "window", help: "Window: 5 min, 1 h, 24 h") { view, context in
                view.window = view.window.next
                view.snapshot = nil
                context.load(view.loads(in: context, refreshing: false))
                return []
            },
            KeyBinding(.nextPane, hint: "panel", help: "Switch between the list and the graphs") { view, _ in
                view.switchPane()
            },
            KeyBinding(.previousPane, help: "Switch between the list and the graphs") { view, _ in view.switchPane() },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.selection = ListMove.clamp(
                view.selection + move.delta(page: context.pageRows), count: context.model.namespaceNames.count + 1)
            return []
        }

    package static let tab: ViewTab? = ViewTab(
        action: .showStatistics, label: "Stats", help: "Statistics (of the namespace in view)")

    package static func opened(from context: ViewContext) -> StatisticsView? {
        StatisticsView(namespace: context.model.current.view.subjectNamespace, among: context.model.namespaceNames)
    }

    private mutating func switchPane() -> [ConsoleEffect] {
        pane = pane == .namespaces ? .graphs : .namespaces
        return []
    }
    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? {
        let names = context.model.namespaceNames
        let scope = names.indices.contains(selection - 1) ? names[selection - 1] : "all"
        return "statistics of \(scope), last \(window.rawValue)"
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        let list = StatisticsScreen.listArea(in: area).insetBy(1)
        guard list.contains(point) else {
            pane = .graphs
            return []
        }
        pane = .namespaces
        let first = max(0, selection - list.size.rows + 1)
        selection = ListMove.clamp(first + point.row - list.minRow, count: context.model.namespaceNames.count + 1)
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [StatisticsRead] {
        [StatisticsRead(window: window)]
    }

    package mutating func apply(_ snapshot: StatisticsSnapshot, for read: StatisticsRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        if read.window == window { self.snapshot = snapshot }
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        StatisticsScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// The telemetry of a window.
package struct StatisticsRead: ConsoleRead {
    let window: StatisticsWindow

    package func run(on source: any ConsoleDataSource) throws -> StatisticsSnapshot {
        try source.statistics(window: window)
    }
}
