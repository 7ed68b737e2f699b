/// What the trash holds: the entries actions kept for undo, and those of namespaces retired by
/// a version change that maintenance has not deleted yet.
public struct TrashSize: Sendable, Hashable, Codable {
    /// Entries.
    public let entries: Int
    /// Their bytes (value plus key).
    public let bytes: Int
}

extension Admin {
    /// What the trash holds now (from the partitions' counters, so exact and O(actions)).
    public func trashSize() throws -> TrashSize {
        try store.database.read { connection in
            let totals = try connection.partitionsTotals()
            return TrashSize(entries: totals.entries, bytes: totals.bytes)
        }
    }
}
