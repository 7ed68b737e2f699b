/// The Overview's own state: which namespace is selected and which panel has focus.
public struct OverviewView: Sendable {
    /// The panels Tab moves between.
    public enum Pane: Sendable, Hashable {
        /// The namespace table.
        case namespaces
        /// The attached processes.
        case processes
    }

    /// The selected namespace's row.
    public internal(set) var selection = 0
    /// The selected namespace's name, so the selection follows it when rows move.
    var selectedName: String?
    /// The first namespace row shown.
    var scroll = 0
    /// The panel with focus.
    public internal(set) var pane = Pane.namespaces
    /// The selected process row.
    var processSelection = 0
    /// Namespace name → when its figures last changed (ms).
    var changedAt: [String: Int64] = [:]
}
