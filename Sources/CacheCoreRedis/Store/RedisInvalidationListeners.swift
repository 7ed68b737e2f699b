import CacheCore
import Foundation
import Synchronization

/// A ``RedisInvalidationListener`` on every primary: client-side tracking is per node, so on
/// a cluster each primary pushes the changes of the keys it serves. It follows the slot map:
/// when a listener loses its node, or a store call found the map changed, it reads the map
/// again; a new primary (a promoted replica, a node added) gets a listener, one that is no
/// longer a primary is stopped, and every memory tier is flushed once the new ones listen
/// (the copies of moved slots, and whatever changed unheard meanwhile, go).
final class RedisInvalidationListeners: Sendable {
    private weak let store: RedisStore?
    private let state: Mutex<State>

    private struct State {
        var listeners: [ClusterAddress: RedisInvalidationListener] = [:]
        /// The slot map's epoch the listeners were made for.
        var epoch = 0
    }

    /// Subscribes on every primary now (so no invalidation after this returns is missed).
    init(store: RedisStore) throws(RedisError) {
        self.store = store
        state = Mutex(State(epoch: store.servers.epoch))
        let listeners = try Self.listeners(for: store.servers.primaries, store: store, following: self)
        state.withLock { $0.listeners = listeners }
    }

    /// The slot map's epoch the listeners were made for.
    var epoch: Int { state.withLock { $0.epoch } }

    /// Whether every primary's subscription is live.
    var isConnected: Bool { state.withLock { $0.listeners.values.allSatisfy(\.isConnected) } }

    /// Stops every listener.
    func stop() {
        let listeners = state.withLock { state in
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.stop() }
    }

    /// Waits until every invalidation each primary pushed before this call was applied: a
    /// marker key on each node (one of its slots), whose push comes after the earlier ones.
    func synchronize(timeout: Duration) throws {
        guard let store else { return }
        follow()
        let listeners = state.withLock { $0.listeners }
        for (address, listener) in listeners {
            let token = Self.tag(of: address, in: store.servers) + UUID().uuidString
            let marker = store.keys.synchronizationPrefix + token
            _ = try store.redis(marker) { try $0.command(["SET", RedisArgument(marker), "1", "PX", 1000]) }
            guard listener.waitForMarker(token, timeout: timeout) else {
                throw CacheError.unreachable(
                    endpoint: "\(address.host):\(address.port)", reason: "no invalidation push within the timeout")
            }
        }
    }

    /// Makes the listeners match the primaries when the slot map changed since they were made.
    func follow() {
        guard let store, case .cluster(let router) = store.servers else { return }
        if state.withLock({ $0.epoch }) == router.epoch { try? router.refresh() }
        let epoch = router.epoch
        let primaries = Set(router.primaries)
        let changed = state.withLock { state -> (stale: [RedisInvalidationListener], missing: [ClusterAddress])? in
            guard state.epoch != epoch else { return nil }
            state.epoch = epoch
            let stale = state.listeners.filter { !primaries.contains($0.key) }
            for address in stale.keys { state.listeners[address] = nil }
            return (Array(stale.values), primaries.filter { state.listeners[$0] == nil })
        }
        guard let changed else { return }
        // A stale listener may be the one calling (from its thread): stopped from another.
        let stale = changed.stale
        if !stale.isEmpty { DispatchQueue.global().async { for listener in stale { listener.stop() } } }
        for address in changed.missing {
            do {
                let listener = try RedisInvalidationListener(
                    store: store, endpoint: router.pool(address).endpoint, onLoss: { [weak self] in self?.follow() })
                state.withLock { $0.listeners[address] = listener }
            } catch {
                state.withLock { $0.epoch = -1 }  // tried again at the next loss or map change
            }
        }
        // Slots may have moved between nodes: what the memory tiers hold of them is dropped.
        store.flushMemoryTiers()
    }

    private static func listeners(
        for pools: [RedisPool], store: RedisStore, following owner: RedisInvalidationListeners
    ) throws(RedisError) -> [ClusterAddress: RedisInvalidationListener] {
        var listeners: [ClusterAddress: RedisInvalidationListener] = [:]
        for pool in pools {
            let address = ClusterAddress(host: pool.endpoint.host, port: pool.endpoint.port)
            listeners[address] = try RedisInvalidationListener(
                store: store, endpoint: pool.endpoint, onLoss: { [weak owner] in owner?.follow() })
        }
        return listeners
    }

    /// A hash tag (`{n}`) whose slot the primary at `address` serves; empty on one server.
    private static func tag(of address: ClusterAddress, in servers: RedisServers) -> String {
        guard case .cluster(let router) = servers else { return "" }
        let topology = router.topology
        for number in 0..<100_000 {
            let tag = "\(number)"
            if topology.owner(of: ClusterSlot.of(Array(tag.utf8))) == address { return "{\(tag)}" }
        }
        return ""
    }
}
