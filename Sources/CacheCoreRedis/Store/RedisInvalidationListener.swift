import CacheCore
import Foundation
import Synchronization

/// Keeps a ``RedisStore``'s near caches coherent by push: one connection of its own, with
/// client-side tracking in broadcast mode redirected to itself and subscribed to
/// `__redis__:invalidate` (RESP2's form), read by a thread of its own.
///
/// Redis pushes the name of every changed entry key and namespace hash under the store's
/// prefix, whoever changed it (another host, the console, expiry, eviction, `FLUSHDB`), and
/// this drops the matching memory copies. The store's own writes come back too and drop its
/// own fresh copy: the next read fetches it again (never stale, at worst a miss).
///
/// When the connection is lost nobody can know what was missed: every memory tier is
/// flushed once the connection is back (resubscribed first, so nothing later is missed), or
/// ``RedisStoreOptions/offlineGrace`` after the loss if the server stays out of reach.
/// Until then memory tiers keep serving what they hold live.
final class RedisInvalidationListener: Sendable {
    private struct State {
        var connection: RedisConnection?
        /// When the connection was lost (nil while connected).
        var lostAt: ContinuousClock.Instant?
        /// Whether the memory tiers were flushed since the loss.
        var flushedSinceLoss = false
        var backoff: Duration = .milliseconds(25)
    }

    private weak let store: RedisStore?
    private let endpoint: RedisEndpoint
    /// Called when the connection is lost and while it cannot be made again (a cluster's
    /// listeners then read the slot map: the node may have been replaced).
    private let onLoss: @Sendable () -> Void
    private let keys: RedisKeys
    private let timeout: Duration
    private let grace: Duration
    private let state: Mutex<State>
    private let worker = Mutex<BackgroundWorker?>(nil)
    /// Tokens of ``RedisStore/synchronize()`` markers whose push was applied, until taken.
    private let markers = Mutex<Set<String>>([])

    /// Subscribes to the server at `endpoint` now (so no invalidation after this returns is
    /// missed) and starts the thread.
    init(store: RedisStore, endpoint: RedisEndpoint, onLoss: @escaping @Sendable () -> Void) throws(RedisError) {
        self.store = store
        self.endpoint = endpoint
        self.onLoss = onLoss
        self.keys = store.keys
        self.timeout = store.redisOptions.timeout
        self.grace = store.redisOptions.offlineGrace
        self.state = Mutex(State())
        let connection = try Self.subscribe(endpoint: endpoint, keys: keys, timeout: timeout)
        state.withLock { $0.connection = connection }
        worker.withLock {
            $0 = BackgroundWorker(name: "CacheCore Redis invalidations") { [weak self] in self?.step() ?? .seconds(1) }
        }
    }

    /// Whether the subscription is live.
    var isConnected: Bool { state.withLock { $0.connection != nil } }

    /// Stops the thread and closes the connection.
    func stop() {
        let running = worker.withLock { worker in
            defer { worker = nil }
            return worker
        }
        running?.stop()
        state.withLock { $0.connection = nil }  // closed when released
    }

    /// One turn of the thread: wait up to 100 ms for a push, or reconnect.
    private func step() -> Duration {
        guard let connection = state.withLock({ $0.connection }) else { return reconnect() }
        do {
            if let message = try connection.nextMessage(timeout: .milliseconds(100)) { apply(message) }
            return .zero
        } catch {
            store?.options.logger.warning(
                "lost the Redis invalidation connection; near caches are flushed once it is back",
                metadata: ["error": "\(error)"])
            let flushNow = state.withLock { state in
                state.connection = nil
                state.lostAt = .now
                state.flushedSinceLoss = grace == .zero
                state.backoff = .milliseconds(25)
                return grace == .zero
            }
            if flushNow { flushAll() }
            onLoss()
            return .zero
        }
    }

    private func reconnect() -> Duration {
        do {
            let connection = try Self.subscribe(endpoint: endpoint, keys: keys, timeout: timeout)
            state.withLock { state in
                state.connection = connection
                state.lostAt = nil
            }
            // Subscribed again before flushing: a change after this point is pushed, and
            // whatever changed while away is gone from memory.
            flushAll()
            return .zero
        } catch {
            let (flushNow, delay) = state.withLock { state in
                let overdue = !state.flushedSinceLoss && state.lostAt.map { .now - $0 >= grace } == true
                if overdue { state.flushedSinceLoss = true }
                state.backoff = min(maxBackoff, state.backoff * 2)
                return (overdue, state.backoff)
            }
            if flushNow { flushAll() }
            onLoss()
            return delay
        }
    }

    private func flushAll() { store?.flushMemoryTiers() }

    /// The longest wait between reconnects (each also reads a cluster's slot map again). On a
    /// cluster it is short: a promoted replica may take the lost node's slots any moment, and
    /// other hosts' writes to it go unheard here, their keys' copies stale, until this reads
    /// the new map. One server takes no writes while it is down: a second.
    private var maxBackoff: Duration { keys.isClustered ? .milliseconds(20) : .seconds(1) }

    /// Waits until the push of marker `token` was applied (so was every earlier push: Redis
    /// sends them in order); `false` after `timeout`.
    func waitForMarker(_ token: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if markers.withLock({ $0.remove(token) != nil }) { return true }
            usleep(200)
        }
        return false
    }

    /// Applies one pushed message: `["message", "__redis__:invalidate", keys or null]`.
    private func apply(_ message: RedisReply) {
        guard let parts = message.array, parts.count == 3, parts[0].string == "message" else { return }
        guard let store else { return }
        guard let pushed = parts[2].array else {
            if parts[2] == .null { flushAll() }  // FLUSHDB / FLUSHALL
            return
        }
        store.coherence.withLock { pushes in
            pushes &+= 1
            for key in pushed.compactMap(\.string) {
                switch keys.parse(key) {
                case .entry(let namespace, let key): store.runtime(named: namespace)?.memory?.remove(key)
                case .namespace(let namespace): store.runtime(named: namespace)?.memory?.removeAll { _ in true }
                case .synchronization(let token): _ = markers.withLock { $0.insert(token) }
                case nil: break
                }
            }
        }
    }

    /// A connection (closed when released) tracking the store's entry and namespace keys, redirected to itself.
    private static func subscribe(endpoint: RedisEndpoint, keys: RedisKeys, timeout: Duration) throws(RedisError)
        -> RedisConnection
    {
        let connection = try RedisConnection(endpoint: endpoint, timeout: timeout)
        guard let id = try connection.command(["CLIENT", "ID"]).integer else {
            throw RedisError.server("CLIENT ID did not answer a number")
        }
        _ = try connection.command([
            "CLIENT", "TRACKING", "on", "REDIRECT", RedisArgument(id), "BCAST", "PREFIX",
            RedisArgument(keys.entryPrefix), "PREFIX", RedisArgument(keys.namespacePrefix),
        ])
        _ = try connection.command(["SUBSCRIBE", "__redis__:invalidate"])
        return connection
    }
}
