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

    package static let bindings: [KeyBinding] =
        [
            KeyBinding(.cycleWindow, hint: "window", help: "Window: 5 min, 1 h, 24 h"),
            KeyBinding(.nextPane, hint: "panel", help: "Switch between the list and the graphs"),
            KeyBinding(.previousPane, help: "Switch between the list and the graphs"),
        ] + KeyBinding.listMotion

    package var tab: KeyAction? { .showStatistics }
    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? {
        let names = context.model.namespaceNames
        let scope = names.indices.contains(selection - 1) ? names[selection - 1] : "all"
        return "statistics of \(scope), last \(window.rawValue)"
    }

    package mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        if let delta = ListMotion.delta(action, page: context.pageRows) {
            selection = ListMotion.clamp(selection + delta, count: context.model.namespaceNames.count + 1)
        } else if action == .nextPane || action == .previousPane {
            pane = pane == .namespaces ? .graphs : .namespaces
        } else if action == .cycleWindow {
            window = window.next
            snapshot = nil
            return [.load(loads(in: context, refreshing: false))]
        }
        return []
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        let list = StatisticsScreen.listArea(in: area).insetBy(1)
        guard list.contains(point) else {
            pane = .graphs
            return []
        }
        pane = .namespaces
        let first = max(0, selection - list.size.rows + 1)
        selection = ListMotion.clamp(first + point.row - list.minRow, count: context.model.namespaceNames.count + 1)
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest] {
        [.statistics(view: context.viewID, window: window)]
    }

    package mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        if case .statistics(_, let window) = request, window == self.window, case .statistics(let snapshot) = data {
            self.snapshot = snapshot
        }
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        StatisticsScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}
