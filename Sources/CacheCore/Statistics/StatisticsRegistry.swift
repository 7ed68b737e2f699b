import Synchronization

/// A store's statistics: one ``NamespaceCounters`` per namespace name, and the namespace
/// ids this store has seen (so sweeps and eviction, which know only ids, can count too).
package final class StatisticsRegistry: Sendable {
    private struct State {
        var counters: [String: NamespaceCounters] = [:]
        var names: [Int64: String] = [:]
    }

    /// Whether anything is counted; when `false` handles get disabled counters.
    let isEnabled: Bool
    private let state = Mutex(State())

    package init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// The counters of `namespace` (created on first use); disabled ones when statistics are off.
    package func counters(for namespace: NamespaceRecord) -> NamespaceCounters {
        guard isEnabled else { return NamespaceCounters(isEnabled: false) }
        return state.withLock { state in
            if let id = namespace.id { state.names[id] = namespace.name }
            return Self.counters(named: namespace.name, in: &state)
        }
    }

    /// The counters of the namespace with row id `id`; `name` finds the name of an id this
    /// store has not seen yet (it may have been opened only by another process).
    func counters(namespaceID id: Int64, name: (Int64) throws -> String?) rethrows -> NamespaceCounters? {
        guard isEnabled else { return nil }
        let known = state.withLock { state in state.names[id].map { Self.counters(named: $0, in: &state) } }
        if let known { return known }
        guard let found = try name(id) else { return nil }
        return counters(for: NamespaceRecord(id: id, name: found, policy: .default))
    }

    /// Counts the entries an eviction pass removed, namespace by namespace.
    func record(_ tally: EvictionTally, on connection: SQLiteConnection) throws {
        guard isEnabled else { return }
        for (id, removed) in tally.namespaces {
            let counters = try counters(namespaceID: id) { try connection.namespaceName(id: $0) }
            if removed.expired > 0 { counters?.expired(count: removed.expired) }
            if removed.evicted > 0 { counters?.evicted(count: removed.evicted, bytes: removed.evictedBytes) }
        }
    }

    /// Every namespace's counts since the store opened (never reset).
    package func totals() -> [String: CacheStatistics] {
        state.withLock { state in state.counters.mapValues { $0.snapshot() } }
    }

    /// The counts since the store opened or was last reset.
    package func statistics() -> StoreStatistics {
        StoreStatistics(namespaces: state.withLock { state in state.counters.mapValues { $0.statistics() } })
    }

    /// Makes the current counts the new zero of ``statistics()``.
    package func reset() {
        state.withLock { state in
            for counters in state.counters.values { counters.reset() }
        }
    }

    private static func counters(named name: String, in state: inout State) -> NamespaceCounters {
        if let existing = state.counters[name] { return existing }
        let created = NamespaceCounters()
        state.counters[name] = created
        return created
    }
}
