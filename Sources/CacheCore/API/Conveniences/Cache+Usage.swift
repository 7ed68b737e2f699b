/// What a namespace's memory tier holds in this process.
public struct MemoryUsage: Sendable, Hashable, Codable {
    /// Entries held (live, or expired and kept for stale reads).
    public let entries: Int
    /// Their size: encoded value bytes plus key bytes (for memory-only namespaces without a
    /// byte limit, the value's in-memory layout size).
    public let bytes: Int

    /// No entries.
    public static let empty = MemoryUsage(entries: 0, bytes: 0)
}

extension Cache {
    /// What this namespace's memory tier holds in this process (``MemoryUsage/empty`` without one).
    public var memoryUsage: MemoryUsage {
        guard let memory = runtime.memory else { return .empty }
        return MemoryUsage(entries: memory.count, bytes: memory.bytes)
    }

    /// How many reads `key`'s file entry has served, or `nil` when the file holds no entry for
    /// it (of this namespace version). It counts every process's reads, memory-tier hits
    /// included: those written to the file plus this store's reads still waiting to be
    /// written (another process's wait up to its access log's next write, about a second).
    public func hitCount(for key: Key) throws -> Int? {
        guard record.policy.isEnabled, record.policy.tiers.usesDisk else { return nil }
        return try backend.hitCount(of: try canonicalKey(key), in: record)
    }
}

extension CacheStore {
    /// ``Cache/hitCount(for:)`` of the file: the entry's hits plus this store's unwritten ones.
    package func hitCount(of key: String, in namespace: NamespaceRecord) throws -> Int? {
        let (name, version) = (namespace.name, namespace.policy.version)
        let found = try database.read { try $0.entryHits(namespace: name, key: key, version: version) }
        guard let found else { return nil }
        return Int(found.hits.addingClamped(accessLog.pendingHits(found.id, namespaceID: found.namespaceID, key: key)))
    }

    /// What each namespace's memory tier holds in this process, by namespace name (only
    /// namespaces with a memory tier).
    public func memoryUsage() -> [String: MemoryUsage] {
        var usage: [String: MemoryUsage] = [:]
        for runtime in allRuntimes {
            guard let memory = runtime.memory else { continue }
            usage[runtime.name] = MemoryUsage(entries: memory.count, bytes: memory.bytes)
        }
        return usage
    }
}
