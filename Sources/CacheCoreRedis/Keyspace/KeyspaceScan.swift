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
package final class KeyspaceScan: SteppedScan {
    /// The prefix the scan is limited to (empty: every key).
    package let prefix: Data
    /// The separator the tree splits names on.
    package let separator: String
    /// The `COUNT` hint of each `SCAN` call.
    package let batchSize: Int
    /// The share of the time each server is left alone (see ``ScanPacing``).
    package var idleShare: Double { pacing.idleShare }
    private let pacing: ScanPacing
    private let servers: RedisServers
    private let state: Mutex<State>
    private let gate = StepGate()

    /// The walk of one primary, with its own cursor. While it has a connection, the `SCAN`
    /// from `cursor` (unless complete) and then the facts of `pending` are in flight on it:
    /// the server reads the next batch while this side takes in the last one.
    private struct NodeWalk {
        let pool: RedisPool
        var cursor = ScanCursor()
        /// Keys a `SCAN` named whose facts are still to read.
        var pending: [Data] = []
        /// Whether only their sizes are asked (the tree was full when they were).
        var pendingSizesOnly = false
        var connection: RedisConnection?

        var isComplete: Bool { cursor.isComplete && pending.isEmpty }
    }

    private struct State {
        var walks: [NodeWalk]
        /// The cluster's slot map the walks follow; when it changes, the scan starts over.
        var epoch: Int
        var restarts = 0
        var keysInDatabase = 0
        var tree: KeyspaceTree
        /// Keys the last step added to the tree (for callers that stream them).
        var lastFound: [(Data, KeyspaceTree.KeyFacts)] = []

        var isComplete: Bool { walks.allSatisfy(\.isComplete) }
        var batches: Int { walks.reduce(0) { $0 + $1.cursor.batches } }
    }

    /// The most keys the tree lists (its other bounds are the tree's own).
    let maxKeys: Int

    init(
        servers: RedisServers, prefix: Data, separator: String, batchSize: Int, idleShare: Double,
        maxKeys: Int = KeyspaceTree.defaultMaxKeys
    ) {
        self.maxKeys = maxKeys
        pacing = ScanPacing(idleShare: idleShare)
        self.servers = servers
        self.prefix = prefix
        self.separator = separator
        self.batchSize = min(10_000, max(1, batchSize))
        state = Mutex(
            State(
                walks: servers.primaries.map { NodeWalk(pool: $0) }, epoch: servers.epoch,
                tree: KeyspaceTree(root: prefix, separator: separator, maxKeys: maxKeys)))
    }

    /// How far the scan is.
    package var progress: KeyspaceScanProgress {
        state.withLock { Self.progress($0) }
    }

    /// Reads one more batch of every primary not done yet, the primaries at once (one thread
    /// and connection each, see ``threadPerTask(_:_:)``), unless the scan is complete (or
    /// another thread is stepping it): the reply of the `SCAN` in flight, then at once the
    /// next `SCAN` and the facts of the keys it named are sent, then the facts of the keys the
    /// step before found are read and added to the tree. On a cluster whose slot map changed, the scan starts over on the new
    /// primaries (keys may have moved to a node already walked). When one primary fails, what
    /// the others read is kept and the error thrown; the next step asks that batch again.
    @discardableResult
    package func step() throws -> KeyspaceScanProgress {
        try gate.run(busy: { progress }) {
            let epoch = servers.epoch
            let (walks, isFull) = state.withLock { state -> ([(Int, NodeWalk)], Bool) in
                restart(&state, ifMovedFrom: epoch)
                let open = state.walks.indices.filter { !state.walks[$0].isComplete }
                return (open.map { ($0, state.walks[$0]) }, state.tree.isFull)
            }
            guard !walks.isEmpty else { return progress }
            let reads = threadPerTask(walks.count) { position in
                self.pacing.paced { Result { try self.read(walks[position].1, isFull: isFull) } }
            }
            var failure: (any Error)?
            let progress = state.withLock { state in
                guard state.epoch == epoch else { return Self.progress(state) }
                state.lastFound = []
                for ((index, _), read) in zip(walks, reads) {
                    switch read {
                    case .success(let read):
                        if let keysInDatabase = read.keysInDatabase {
                            state.keysInDatabase = state.keysInDatabase.addingClamped(Int(clamping: keysInDatabase))
                        }
                        state.walks[index] = read.walk
                        state.lastFound += read.facts.filter { key, facts in state.tree.insert(key, facts) }
                    case .failure(let error):
                        // Replies may be left in flight: the connection goes, the batch is asked again.
                        state.walks[index].connection = nil
                        failure = failure ?? error
                    }
                }
                return Self.progress(state)
            }
            if let failure { throw failure }
            // Every node walked: had slots moved meanwhile, the next step starts over.
            if progress.isComplete, case .cluster(let router) = servers {
                try router.refresh()
                return state.withLock { state in
                    restart(&state, ifMovedFrom: router.epoch)
                    return Self.progress(state)
                }
            }
            return progress
        }
    }

    /// What one step read of a walk: the walk as it is after it, and the facts it read.
    private struct WalkStep {
        var walk: NodeWalk
        var keysInDatabase: Int64?
        var facts: [(Data, KeyspaceTree.KeyFacts)]
    }

    /// One step of `walk` (see ``step()``); the walk it returns keeps the connection while
    /// anything is in flight on it.
    private func read(_ walk: NodeWalk, isFull: Bool) throws -> WalkStep {
        var walk = walk
        let pattern = prefix.isEmpty ? nil : Self.pattern(prefix)
        let connection: RedisConnection
        var keysInDatabase: Int64?
        if let open = walk.connection {
            connection = open
        } else {
            connection = try walk.pool.connect()
            let first = walk.cursor.batches == 0
            try connection.send(
                (first ? [["DBSIZE"]] : [])
                    + (walk.cursor.isComplete ? [] : [walk.cursor.command(match: pattern, count: batchSize)])
                    + KeyFactsReader.commands(walk.pending, sizesOnly: walk.pendingSizesOnly))
            if first {
                keysInDatabase = try connection.receive(1)[0].integer
                walk.cursor.keysInDatabase = keysInDatabase
            }
        }
        let endpoint = connection.endpoint.description
        let asked = (keys: walk.pending, sizesOnly: walk.pendingSizesOnly)
        if walk.cursor.isComplete {
            walk.pending = []
        } else {
            walk.pending = try walk.cursor.advance(with: try connection.receive(1)[0], from: endpoint)
            walk.pendingSizesOnly = isFull
            try connection.send(
                (walk.cursor.isComplete ? [] : [walk.cursor.command(match: pattern, count: batchSize)])
                    + KeyFactsReader.commands(walk.pending, sizesOnly: isFull))
        }
        let replies = try connection.receive(asked.sizesOnly ? asked.keys.count : asked.keys.count * 3)
        var facts = try KeyFactsReader.facts(
            of: asked.keys, sizesOnly: asked.sizesOnly, replies: replies, now: Self.now(), endpoint: endpoint)
        try walk.pool.withConnection { try KeyFactsReader.markSampled(&facts, on: $0) }
        walk.connection = walk.isComplete ? nil : connection
        return WalkStep(walk: walk, keysInDatabase: keysInDatabase, facts: facts)
    }

    /// Starts the scan over on the primaries of the slot map `epoch`, unless it walks them already.
    private func restart(_ state: inout State, ifMovedFrom epoch: Int) {
        guard state.epoch != epoch else { return }
        state = State(
            walks: servers.primaries.map { NodeWalk(pool: $0) }, epoch: epoch, restarts: state.restarts + 1,
            tree: KeyspaceTree(root: prefix, separator: separator, maxKeys: maxKeys))
    }

    /// The keys right under the scan's prefix (no separator after it) that the last step
    /// found, in the order `SCAN` named them: what a caller streams as the scan runs.
    package func keysFoundByLastStep() -> [KeyspaceNode] {
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
    package func level(_ path: Data? = nil, limit: Int = 1000) -> KeyspaceLevel {
        state.withLock { state in
            state.tree.level(
                path ?? prefix, limit: limit, isComplete: state.isComplete, separatorText: separator,
                scan: Self.progress(state))
        }
    }

    /// Runs `body` on the tree as it is, with whether the scan is complete and its progress.
    func withTree<T>(_ body: (KeyspaceTree, Bool, KeyspaceScanProgress) -> T) -> T {
        state.withLock { state in body(state.tree, state.isComplete, Self.progress(state)) }
    }

    private static func progress(_ state: State) -> KeyspaceScanProgress {
        KeyspaceScanProgress(
            keysFound: state.tree.keyCount, keysInDatabase: state.keysInDatabase,
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
