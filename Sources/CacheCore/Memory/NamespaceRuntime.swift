import Foundation
import Synchronization

/// What one store keeps per namespace in this process, shared by every handle on it: the
/// memory tier, loads in flight, load back-off, and sets waiting to be written (write-behind).
@usableFromInline package final class NamespaceRuntime: Sendable {
    package let name: String
    private let current: Mutex<NamespaceRecord>
    /// `nil` when the namespace keeps nothing in memory.
    @usableFromInline package let memory: MemoryTier?
    let loads = SingleFlight()
    let backoff = LoadBackoffTable()
    let pending = PendingWrites()
    /// The namespace's counters, which add up the memory tier's hits.
    private let counters: NamespaceCounters

    /// `keepsMemory` says whether the namespace gets a memory tier (its policy asks for one
    /// and the store can keep it coherent).
    init(_ namespace: NamespaceRecord, keepsMemory: Bool, counters: NamespaceCounters) {
        let policy = namespace.policy
        name = namespace.name
        current = Mutex(namespace)
        memory = keepsMemory ? MemoryTier(maxEntries: policy.memoryMaxEntries, maxBytes: policy.memoryMaxBytes) : nil
        self.counters = counters
        if let memory { counters.addUp(memory) }
    }

    /// Hands the memory tier's hit count to the counters for good: a runtime with other
    /// tiers replaces this one (handles made before keep using it).
    func retire() {
        if let memory { counters.retire(memory) }
    }

    /// The runtime `runtimes` holds for `namespace` when it has the same tiers (it adopts the
    /// namespace's policy), or a new one in its place (the old one retires).
    package static func shared(
        for namespace: NamespaceRecord, keepsMemory: Bool, in runtimes: borrowing Mutex<[String: NamespaceRuntime]>,
        counters: () -> NamespaceCounters
    ) -> NamespaceRuntime {
        runtimes.withLock { runtimes in
            let existing = runtimes[namespace.name]
            if let existing, existing.fits(keepsMemory: keepsMemory) {
                existing.adopt(namespace)
                return existing
            }
            existing?.retire()
            let made = NamespaceRuntime(namespace, keepsMemory: keepsMemory, counters: counters())
            runtimes[namespace.name] = made
            return made
        }
    }

    /// Whether a handle on `namespace` can share this runtime (same tiers).
    func fits(keepsMemory: Bool) -> Bool { (memory != nil) == keepsMemory }

    /// The namespace as the latest handle opened it (write-behind flushes write with it).
    package var record: NamespaceRecord { current.withLock { $0 } }

    /// The namespace's live row id as this process last resolved it; `nil` when a read-only
    /// store has never seen it, or a newer version of the namespace took the file over.
    var namespaceID: Int64? { current.withLock { $0.id } }

    /// Follows the namespace to row `id` (another process cleared it, or undid a clear), or to
    /// none (`nil`: a newer version owns it now).
    func retarget(_ id: Int64?) {
        current.withLock { $0 = NamespaceRecord(id: id, name: $0.name, policy: $0.policy) }
    }

    /// The write-behind interval, when the namespace batches its file writes.
    var writeBehind: Duration? {
        let policy = record.policy
        return policy.tiers == .memoryAndDisk ? policy.writeBehind : nil
    }

    /// Adopts the policy of a newer handle on the same namespace.
    func adopt(_ namespace: NamespaceRecord) {
        current.withLock { $0 = namespace }
        memory?.setLimits(maxEntries: namespace.policy.memoryMaxEntries, maxBytes: namespace.policy.memoryMaxBytes)
    }

    /// Drops what `selector` selects from memory and from the sets waiting for the file;
    /// returns how many memory entries it dropped.
    @discardableResult
    package func drop(_ selector: InvalidationSelector) -> Int {
        guard selector.namespace == nil || selector.namespace == name else { return 0 }
        if case .key(_, let key) = selector {
            pending.discard(key)
            return memory?.remove(key) == true ? 1 : 0
        }
        let selects = selector.matcher(in: name)
        pending.discardAll { selects($0.key, $0.tags) }
        guard let memory else { return 0 }
        return memory.removeAll { selects($0.key, $0.tags) }
    }

    /// Drops what another instance's journaled `change` removed from the file.
    func drop(_ change: JournalChange) {
        switch change {
        case .invalidated(let selector): drop(selector)
        case .swept(let namespace, let at, let keepingStaleWindow):
            if namespace == nil || namespace == name { dropExpired(at: at, keepingStaleWindow: keepingStaleWindow) }
        }
    }

    /// Drops the expired entries (those past their stale window when `keepingStaleWindow`)
    /// from memory and from the sets waiting for the file, as a sweep does in the file.
    func dropExpired(at now: Int64, keepingStaleWindow: Bool) {
        pending.discardAll {
            keepingStaleWindow ? $0.attributes.isPurgeable(at: now) : $0.attributes.isExpired(at: now)
        }
        memory?.removeAll { keepingStaleWindow ? $0.isPurgeable(at: now) : $0.isExpired(at: now) }
    }
}

/// One set of one key, on its way to the file (now, or later with write-behind).
package struct EntryWrite: Sendable {
    package let key: String
    package let value: Data
    package let attributes: WriteAttributes
    /// When the set happened; the file row is stamped with it.
    package let writtenAt: Int64

    var tags: [String] { attributes.tags }

    /// Key plus value bytes, as the namespace's byte counter counts them.
    var size: Int { value.count + key.utf8.count }
}

/// Sets waiting for the file, newest per key, in a namespace with write-behind. A set waits
/// at most one flush interval (measured from the oldest waiting set).
final class PendingWrites: Sendable {
    private struct State {
        var writes: [String: EntryWrite] = [:]
        var oldest: Int64?
    }

    private let state = Mutex(State())

    func add(_ write: EntryWrite) {
        state.withLock { state in
            state.writes[write.key] = write
            state.oldest = min(state.oldest ?? write.writtenAt, write.writtenAt)
        }
    }

    func value(for key: String) -> EntryWrite? { state.withLock { $0.writes[key] } }

    /// Forgets `key` (it was removed).
    func discard(_ key: String) {
        _ = state.withLock { $0.writes.removeValue(forKey: key) }
    }

    /// Forgets every waiting write matching `matches`.
    func discardAll(where matches: (EntryWrite) -> Bool) {
        state.withLock { $0.writes = $0.writes.filter { !matches($0.value) } }
    }

    var isEmpty: Bool { state.withLock { $0.writes.isEmpty } }

    /// Takes every waiting write when `force` or once the oldest has waited `interval`.
    func take(now: Int64, interval: Int64, force: Bool) -> [EntryWrite] {
        state.withLock { state in
            guard force || state.oldest.map({ now - $0 >= interval }) == true else { return [] }
            let writes = Array(state.writes.values)
            state = State()
            return writes
        }
    }

    /// Puts back writes that could not be flushed, unless newer ones arrived meanwhile.
    func restore(_ writes: [EntryWrite]) {
        for write in writes {
            state.withLock { state in
                guard state.writes[write.key] == nil else { return }
                state.writes[write.key] = write
                state.oldest = min(state.oldest ?? write.writtenAt, write.writtenAt)
            }
        }
    }
}
