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
    /// Namespace name → since when its changed figures are highlighted (ms).
    var changedAt: [String: Int64] = [:]
    /// Namespace name → when its figures last changed (ms), highlighted or not.
    var lastChange: [String: Int64] = [:]
    /// The column the namespace table is sorted by.
    public internal(set) var sort = NamespaceColumn.name
    /// Whether the order is reversed.
    public internal(set) var descending = false

    /// `namespaces` in the table's order (ties by name).
    func ordered(_ namespaces: [NamespaceFacts]) -> [NamespaceFacts] {
        let sorted = namespaces.sorted { first, second in
            let (a, b) = (sort.key(first), sort.key(second))
            return a == b ? first.name < second.name : a < b
        }
        return descending ? sorted.reversed() : sorted
    }
}

/// The sortable columns of the namespace table.
public enum NamespaceColumn: Int, CaseIterable, Sendable {
    /// By name.
    case name
    /// By stored entries.
    case entries
    /// By bytes.
    case bytes
    /// By recent hit rate (namespaces without reads first).
    case hitRate
    /// By expired entries waiting for a sweep.
    case expired

    /// What the column compares (names compare by their position in name order).
    fileprivate func key(_ namespace: NamespaceFacts) -> Double {
        switch self {
        case .name: 0
        case .entries: Double(namespace.entries)
        case .bytes: Double(namespace.bytes)
        case .hitRate: namespace.hitRate ?? -1
        case .expired: Double(namespace.expired)
        }
    }

    /// The next column, wrapping around.
    var next: NamespaceColumn { NamespaceColumn(rawValue: rawValue + 1) ?? .name }
}
