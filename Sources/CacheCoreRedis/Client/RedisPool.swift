import CacheCore
import Foundation
import Synchronization

/// Connections to one Redis server, lent to one caller at a time.
///
/// A broken connection is dropped, with every idle one (they most likely broke too, as when the
/// server restarted); so is an idle one the server has closed, before it is lent. After a failed connect, callers fail fast with that error until a
/// back-off has passed (50 ms, doubling up to 2 s), so a server that is down costs each call
/// nothing rather than a timeout. Commands are never retried: after a lost connection nobody
/// knows whether the server applied the command, and the caller decides.
final class RedisPool: Sendable {
    let endpoint: RedisEndpoint
    private let size: Int
    private let timeout: Duration
    private let state = Mutex(State())

    private struct State {
        var idle: [RedisConnection] = []
        var failure: (error: RedisError, retryAt: ContinuousClock.Instant, backoff: Duration)?
    }

    /// Keeps at most `size` idle connections; `timeout` bounds connects, reads and writes.
    init(endpoint: RedisEndpoint, size: Int, timeout: Duration) {
        self.endpoint = endpoint
        self.size = max(1, size)
        self.timeout = timeout
    }

    /// Runs `body` with a connection, returning it to the pool afterwards unless it broke.
    func withConnection<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        let connection = try take()
        defer { give(connection) }
        return try body(connection)
    }

    /// A connection of the caller's own, never lent: for a walk that keeps replies in flight
    /// from one call to the next. The caller closes it by releasing it.
    func connect() throws(RedisError) -> RedisConnection {
        try RedisConnection(endpoint: endpoint, timeout: timeout)
    }

    /// Closes the idle connections (connections in use close when returned).
    func drain() {
        _ = state.withLock { state in
            let idle = state.idle
            state.idle.removeAll()
            return idle.count
        }
    }

    private func take() throws(RedisError) -> RedisConnection {
        let reused = state.withLock { state -> Result<RedisConnection?, RedisError> in
            if let connection = state.idle.popLast() {
                // One the server closed while idle (a restart) is not lent: the idle ones
                // went with it, and a fresh connection is made instead of failing the call.
                guard connection.isClosedByServer else { return .success(connection) }
                state.idle.removeAll()
            }
            if let failure = state.failure, ContinuousClock.now < failure.retryAt { return .failure(failure.error) }
            return .success(nil)
        }
        if let connection = try reused.get() { return connection }
        do {
            let connection = try RedisConnection(endpoint: endpoint, timeout: timeout)
            state.withLock { $0.failure = nil }
            return connection
        } catch {
            state.withLock { state in
                let backoff = min(.seconds(2), (state.failure?.backoff ?? .milliseconds(25)) * 2)
                state.failure = (error, ContinuousClock.now + backoff, backoff)
            }
            throw error
        }
    }

    private func give(_ connection: RedisConnection) {
        state.withLock { state in
            if connection.isBroken {
                state.idle.removeAll()
            } else if state.idle.count < size {
                state.idle.append(connection)
            }
        }
    }
}
