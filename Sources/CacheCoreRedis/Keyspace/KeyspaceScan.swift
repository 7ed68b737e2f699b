import CacheCore
import Foundation
import Synchronization

/// A `SCAN` of a Redis keyspace building its prefix tree a bounded batch at a time: each
/// `step()` is one `SCAN … COUNT` call and two pipelines over the keys it returned, so a
/// caller can show the tree as it grows and stop whenever it likes. Inside a prefix the scan
/// uses `MATCH prefix*`. Counts are exact once ``KeyspaceScanProgress/isComplete`` (for the
/// keys that existed for the whole scan); until then they are lower bounds, and marked so.
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
        var cursor = "0"
        var started = false
        var isComplete = false
        var batches = 0
        var keysInDatabase = 0
        var tree: KeyspaceTree
    }

    init(pool: RedisPool, prefix: Data, separator: String, batchSize: Int) {
        self.pool = pool
        self.prefix = prefix
        self.separator = separator
        self.batchSize = min(10_000, max(1, batchSize))
        state = Mutex(State(tree: KeyspaceTree(root: prefix, separator: separator)))
    }

    /// How far the scan is.
    public var progress: KeyspaceScanProgress {
        state.withLock { Self.progress($0) }
    }

    /// Scans one more batch, unless the scan is complete (or another thread is stepping it).
    @discardableResult
    public func step() throws -> KeyspaceScanProgress {
        try gate.run(busy: { progress }) {
            let (cursor, started, isComplete, batches, known) = state.withLock {
                ($0.cursor, $0.started, $0.isComplete, $0.batches, $0.keysInDatabase)
            }
            guard !isComplete else { return progress }
            let (next, found, keysInDatabase) = try pool.withConnection { connection in
                let keysInDatabase = started ? nil : try connection.command(["DBSIZE"]).integer
                try ScanLimit(keysInDatabase: keysInDatabase ?? Int64(known))
                    .check(batches, endpoint: connection.endpoint.description)
                var arguments: [RedisArgument] = ["SCAN", RedisArgument(cursor)]
                if !prefix.isEmpty { arguments += ["MATCH", RedisArgument(Self.pattern(prefix))] }
                arguments += ["COUNT", RedisArgument(batchSize)]
                let reply = try connection.command(arguments).array ?? []
                guard reply.count == 2, let next = reply[0].string, let keys = reply[1].array?.compactMap(\.data) else {
                    throw RedisError.server("SCAN gave an unexpected reply")
                }
                let found = try KeyFactsReader.read(keys, on: connection, now: Self.now())
                return (next, found, keysInDatabase)
            }
            return state.withLock { state in
                if let keysInDatabase { state.keysInDatabase = Int(keysInDatabase) }
                state.started = true
                for (key, facts) in found { state.tree.insert(key, facts) }
                state.cursor = next
                state.batches += 1
                state.isComplete = next == "0"
                return Self.progress(state)
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
            keysFound: state.tree.prefixes[state.tree.root]?.keys ?? 0, keysInDatabase: state.keysInDatabase,
            batches: state.batches, isMatchScan: !state.tree.root.isEmpty, isComplete: state.isComplete)
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
