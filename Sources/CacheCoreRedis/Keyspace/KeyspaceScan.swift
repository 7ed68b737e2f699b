import CacheCore
import Foundation
import Synchronization

/// A `SCAN` of a Redis keyspace building its prefix tree a bounded batch at a time: each
/// `step()` is one round trip carrying the facts of the keys the last `SCAN … COUNT` named
/// (`TYPE`, `PTTL`, `MEMORY USAGE`, `OBJECT ENCODING`) and the next `SCAN`, so the scan runs
/// at the server's pace and a caller can show the tree as it grows and stop whenever it
/// likes. Inside a prefix the scan uses `MATCH prefix*`. Counts are exact once
/// ``KeyspaceScanProgress/isComplete`` (for the keys that existed for the whole scan); until
/// then they are lower bounds, and marked so. The tree's memory is bounded (see
/// ``KeyspaceLevel/unlistedKeys``).
public final class KeyspaceScan: SteppedScan {
    /// The prefix the scan is limited to (empty: every key).
    public let prefix: Data
    /// The separator the tree splits names on.
    public let separator: String
    /// The `COUNT` hint of each `SCAN` call.
    public let batchSize: Int
    private let pool: RedisPool
    private let state: Mutex<State>
    private let gate = StepGate()

    private struct State {
        var cursor = ScanCursor()
        /// Keys the last `SCAN` named whose facts are still to read.
        var pending: [Data] = []
        var keysInDatabase = 0
        var tree: KeyspaceTree
        /// Keys the last step added to the tree (for callers that stream them).
        var lastFound: [(Data, KeyspaceTree.KeyFacts)] = []

        var isComplete: Bool { cursor.isComplete && pending.isEmpty }
    }

    init(pool: RedisPool, prefix: Data, separator: String, batchSize: Int, tree: KeyspaceTree? = nil) {
        self.pool = pool
        self.prefix = prefix
        self.separator = separator
        self.batchSize = min(10_000, max(1, batchSize))
        state = Mutex(State(tree: tree ?? KeyspaceTree(root: prefix, separator: separator)))
    }

    /// How far the scan is.
    public var progress: KeyspaceScanProgress {
        state.withLock { Self.progress($0) }
    }

    /// Reads one more batch, unless the scan is complete (or another thread is stepping it).
    @discardableResult
    public func step() throws -> KeyspaceScanProgress {
        try gate.run(busy: { progress }) {
            let (cursor, pending, isComplete) = state.withLock { ($0.cursor, $0.pending, $0.isComplete) }
            guard !isComplete else { return progress }
            let pattern = prefix.isEmpty ? nil : Self.pattern(prefix)
            let next = cursor.isComplete ? nil : cursor.command(match: pattern, count: batchSize)
            let (keysInDatabase, found, reply, endpoint) = try pool.withConnection { connection in
                let keysInDatabase = cursor.batches == 0 ? try connection.command(["DBSIZE"]).integer : nil
                let (found, reply) = try KeyFactsReader.read(pending, then: next, on: connection, now: Self.now())
                return (keysInDatabase, found, reply, connection.endpoint.description)
            }
            return try state.withLock { state throws(RedisError) in
                if let keysInDatabase { state.keysInDatabase = Int(clamping: keysInDatabase) }
                state.pending = try reply.map { reply throws(RedisError) in
                    try state.cursor.advance(with: reply, from: endpoint)
                } ?? []
                state.lastFound = found.filter { key, facts in state.tree.insert(key, facts) }
                return Self.progress(state)
            }
        }
    }

    /// The keys right under the scan's prefix (no separator after it) that the last step
    /// found, in the order `SCAN` named them: what a caller streams as the scan runs.
    public func keysFoundByLastStep() -> [KeyspaceNode] {
        let separator = Data(separator.utf8)
        return state.withLock { state in
            state.lastFound.compactMap { key, facts in
                guard separator.isEmpty || key.dropFirst(prefix.count).firstRange(of: separator) == nil else {
                    return nil
                }
                return KeyspaceTree.keyNode(key, under: prefix, facts)
            }
        }
    }

    /// The children of `path` (the scan's prefix when `nil`) found so far, the largest
    /// first, at most `limit` of them.
    public func level(_ path: Data? = nil, limit: Int = 1000) -> KeyspaceLevel {
        state.withLock { state in
            state.tree.level(
                path ?? prefix, limit: limit, isComplete: state.isComplete, separatorText: separator,
                scan: Self.progress(state))
        }
    }

    private static func progress(_ state: State) -> KeyspaceScanProgress {
        KeyspaceScanProgress(
            keysFound: state.tree.keyCount, keysInDatabase: state.keysInDatabase,
            batches: state.cursor.batches, isMatchScan: !state.tree.root.isEmpty, isComplete: state.isComplete)
    }

    /// A `MATCH` pattern for the keys starting with `prefix`: its glob characters escaped,
    /// then `*`.
    static func pattern(_ prefix: Data) -> Data {
        var pattern = Data()
        for byte in prefix {
            if "*?[]\\".utf8.contains(byte) { pattern.append(UInt8(ascii: "\\")) }
            pattern.append(byte)
        }
        pattern.append(UInt8(ascii: "*"))
        return pattern
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
