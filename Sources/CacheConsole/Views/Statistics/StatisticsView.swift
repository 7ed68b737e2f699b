/// The Statistics view: a namespace list and the graphs of the selected one.
public struct StatisticsView: Sendable {
    /// The panels Tab moves between.
    public enum Pane: Sendable, Hashable {
        /// The namespace list.
        case namespaces
        /// The graphs.
        case graphs
    }

    /// The window graphed.
    public internal(set) var window = StatisticsWindow.fiveMinutes
    /// The selected row of the list: 0 is every namespace together.
    public internal(set) var selection = 0
    /// The panel with focus.
    public internal(set) var pane = Pane.namespaces
    /// The telemetry as last read.
    public internal(set) var snapshot: StatisticsSnapshot?
}
