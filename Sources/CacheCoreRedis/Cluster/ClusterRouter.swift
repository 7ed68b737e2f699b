import CacheCore
import Foundation
import Synchronization

/// Sends commands to the nodes of a Redis Cluster over hiredis (which has no cluster support
/// here): a slot map from `CLUSTER SLOTS`, one ``RedisPool`` per node, and the redirections
/// a cluster answers while it changes: `MOVED` (the slot has a new owner: refresh the map,
/// send there) and `ASK` (the slot is migrating and this key is already on the target: send
/// `ASKING` and the command there, once). `TRYAGAIN` and `CLUSTERDOWN` are retried a few times.
///
/// Like ``RedisPool``, it never resends a command after a lost connection (nobody knows
/// whether the server applied it): the caller gets one error line, and the map is refreshed so
/// the next command reaches the slot's new primary after a failover. A command that could
/// not be sent at all (the node refused the connection) is sent again after a refresh.
final class ClusterRouter: Sendable {
    /// The endpoints the URL named: where a refresh asks when no known node answers.
    let seeds: [RedisEndpoint]
    private let poolSize: Int
    private let timeout: Duration
    private let state: Mutex<State>

    private struct State {
        var topology: ClusterTopology
        /// Bumped by every refresh that changed the map.
        var epoch = 0
        var pools: [ClusterAddress: RedisPool] = [:]
    }

    /// The most redirections one command follows.
    static let maxRedirections = 5

    /// Connects to the first seed that answers and reads the slot map.
    init(seeds: [RedisEndpoint], poolSize: Int, timeout: Duration) throws(RedisError) {
        guard let first = seeds.first else { throw .badURL("a cluster URL names at least one node") }
        self.seeds = seeds
        self.poolSize = poolSize
        self.timeout = timeout
        state = Mutex(State(topology: try ClusterTopology(slotsReply: .array([]), defaultHost: first.host)))
        try refresh()
        guard !topology.nodes.isEmpty else {
            throw .server("\(first) is in a cluster that serves no slots yet (CLUSTER SLOTS is empty)")
        }
    }

    /// The slot map as last read.
    var topology: ClusterTopology { state.withLock { $0.topology } }

    /// Changes each time a refresh finds the map changed (a resharding, a failover).
    var epoch: Int { state.withLock { $0.epoch } }

    /// The primaries, in the map's order.
    var primaries: [ClusterAddress] { topology.nodes.map(\.address) }

    /// The pool of the node at `address` (made on first use, logging in as the seeds do).
    func pool(_ address: ClusterAddress) -> RedisPool {
        state.withLock { state in
            if let pool = state.pools[address] { return pool }
            var endpoint = seeds[0]
            endpoint.host = address.host
            endpoint.port = address.port
            let pool = RedisPool(endpoint: endpoint, size: poolSize, timeout: timeout)
            state.pools[address] = pool
            return pool
        }
    }

    /// Closes the idle connections of every node.
    func drain() {
        for pool in state.withLock({ Array($0.pools.values) }) { pool.drain() }
    }

    /// Waits a little before attempt `attempt + 1` at a slot that is moving or a primary being
    /// replaced (25 ms, then 50, 75…), so the retries span a migration's step.
    func pause(attempt: Int) {
        Thread.sleep(forTimeInterval: 0.025 * Double(attempt + 1))
    }

    /// Reads the slot map again from the first node that answers: the known primaries, their
    /// replicas, then the seeds.
    func refresh() throws(RedisError) {
        let known = topology.nodes.flatMap { [$0.address] + $0.replicas }
        let candidates = known + seeds.map { ClusterAddress(host: $0.host, port: $0.port) }
        var lastError = RedisError.server("no cluster node answered")
        var seen: Set<ClusterAddress> = []
        for address in candidates where seen.insert(address).inserted {
            do {
                let reply = try pool(address).withConnection { try $0.command(["CLUSTER", "SLOTS"]) }
                let read = try ClusterTopology(slotsReply: reply, defaultHost: address.host)
                // A node that lost touch with the others may answer with a partial map: keep looking.
                if read.unservedSlots > 0 && address != candidates.last {
                    lastError = .server("\(address) sees \(read.unservedSlots) slots unserved")
                    continue
                }
                state.withLock { state in
                    // Walks and listeners start over only when slots move: a replica that
                    // joins or leaves (as in a cluster just made) changes no route.
                    if read.movesSlots(from: state.topology) { state.epoch += 1 }
                    state.topology = read
                }
                return
            } catch let error as RedisError {
                lastError = error
            } catch {
                lastError = .server(String(describing: error))
            }
        }
        throw lastError
    }

    /// Runs `body` with a connection to the primary of `slot`, refreshing the map once when
    /// no node serves it.
    func withConnection<T>(slot: Int, _ body: (RedisConnection) throws -> T) throws -> T {
        try pool(try owner(of: slot)).withConnection(body)
    }

    /// Sends `commands`, whose keys all hash to `slot`, in one pipeline to the slot's primary
    /// and returns their replies in order, following redirections: after `MOVED` the whole
    /// pipeline goes to the new owner (no command of it ran), after `ASK` only the commands
    /// redirected go to the target, each after `ASKING`. Error replies are returned in place.
    func pipeline(slot: Int, _ commands: [[RedisArgument]]) throws -> [RedisReply] {
        var target = try owner(of: slot)
        var replies: [RedisReply] = []
        for attempt in 0...Self.maxRedirections {
            do {
                replies = try pool(target).withConnection { try $0.pipeline(commands) }
            } catch RedisError.cannotConnect(let endpoint, let reason) {
                // Nothing was sent: a failover may have promoted a replica.
                guard attempt < Self.maxRedirections, (try? refresh()) != nil, let next = topology.owner(of: slot),
                    next != target
                else { throw RedisError.cannotConnect(endpoint: endpoint, reason: reason) }
                target = next
                continue
            } catch RedisError.connectionLost(let endpoint, let reason) {
                try? refresh()
                throw RedisError.connectionLost(endpoint: endpoint, reason: reason)
            }
            switch Redirection(replies) {
            case nil:
                return replies
            case .moved(let address):
                try? refresh()
                target = address
            case .ask(let address):
                return try askRedirected(replies, commands, to: address)
            case .retry:
                if attempt > 0 { try? refresh() }
                target = try owner(of: slot)
            }
        }
        throw RedisError.server("slot \(slot) is still moving after \(Self.maxRedirections) redirections")
    }

    /// One command on the key `key`, routed by its slot; an error reply throws.
    @discardableResult
    func command(key: Data, _ arguments: [RedisArgument]) throws -> RedisReply {
        let reply = try pipeline(slot: ClusterSlot.of(key), [arguments])[0]
        if case .error(let message) = reply { throw RedisError(serverMessage: message, endpoint: "cluster") }
        return reply
    }

    // MARK: Private

    private func owner(of slot: Int) throws(RedisError) -> ClusterAddress {
        if let owner = topology.owner(of: slot) { return owner }
        try refresh()
        guard let owner = topology.owner(of: slot) else { throw .server("CLUSTERDOWN no node serves slot \(slot)") }
        return owner
    }

    /// `replies` with each `ASK`-redirected command sent again to `address` after `ASKING`.
    private func askRedirected(_ replies: [RedisReply], _ commands: [[RedisArgument]], to address: ClusterAddress)
        throws -> [RedisReply]
    {
        let asked = replies.indices.filter { Redirection.isAsk(replies[$0]) }
        let again = try pool(address).withConnection { connection in
            try connection.pipeline(asked.flatMap { [["ASKING"], commands[$0]] })
        }
        var merged = replies
        for (position, index) in asked.enumerated() { merged[index] = again[position * 2 + 1] }
        return merged
    }
}

/// What a cluster's error replies ask of a client.
enum Redirection: Equatable {
    /// `MOVED slot host:port`: the slot lives there now.
    case moved(ClusterAddress)
    /// `ASK slot host:port`: this key is already on the migration's target.
    case ask(ClusterAddress)
    /// `TRYAGAIN` (a multi-key command during a migration) or `CLUSTERDOWN`.
    case retry

    /// The first redirection among `replies` (`MOVED` first, since it concerns all of them).
    init?(_ replies: [RedisReply]) {
        var found: Redirection?
        for reply in replies {
            guard case .error(let message) = reply else { continue }
            let words = message.split(separator: " ", maxSplits: 3)
            switch words.first {
            case "MOVED" where words.count >= 3:
                if let address = ClusterAddress(redirection: words[2]) {
                    self = .moved(address)
                    return
                }
            case "ASK" where words.count >= 3:
                if found == nil, let address = ClusterAddress(redirection: words[2]) { found = .ask(address) }
            case "TRYAGAIN", "CLUSTERDOWN":
                if found == nil { found = .retry }
            default:
                continue
            }
        }
        guard let found else { return nil }
        self = found
    }

    static func isAsk(_ reply: RedisReply) -> Bool {
        if case .error(let message) = reply { return message.hasPrefix("ASK ") }
        return false
    }
}
