import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation
import Synchronization

/// Counts a RedisStore's entries on a thread of its own, one bounded `SCAN` batch after
/// another, so the console's reads only look at the latest counts: a census completes in
/// seconds instead of a slice per refresh, and no read waits for it. Complete counts are
/// shown until the next census completes, one ``interval`` later; ``restart()`` drops them.
final class RedisCensusRunner: Sendable {
    private let inspector: RedisStoreInspector
    private let interval: Duration
    private let state: Mutex<State>
    /// Wakes the thread early: a restart or a stop.
    private let wake = DispatchSemaphore(value: 0)

    private struct State {
        var counting: RedisEntryCensus
        var shown: RedisEntryCensus?
        /// The last step's failure (the server went away), until a step succeeds.
        var failure: (any Error)?
        var isStopped = false
    }

    /// Starts counting the store `inspector` reads.
    init(inspector: RedisStoreInspector, interval: Duration) {
        self.inspector = inspector
        self.interval = interval
        state = Mutex(State(counting: inspector.census()))
        Thread.detachNewThread { [self] in run() }
    }

    /// The census to show: the last complete one, else the one counting (lower bounds).
    /// Throws the last step's failure while the server cannot be read.
    func current() throws -> RedisEntryCensus {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.shown ?? state.counting
        }
    }

    /// Drops the counts shown and counts afresh (after an action changed them).
    func restart() {
        state.withLock { state in
            state.counting = inspector.census()
            state.shown = nil
        }
        wake.signal()
    }

    /// Ends the thread (after its current step).
    func stop() {
        state.withLock { $0.isStopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            let (census, isStopped) = state.withLock { ($0.counting, $0.isStopped) }
            if isStopped { return }
            do {
                let progress = try census.step()
                state.withLock { $0.failure = nil }
                guard progress.isComplete else { continue }
                state.withLock { if $0.counting === census { $0.shown = census } }
                _ = wake.wait(timeout: .now() + .milliseconds(Int(interval.milliseconds)))
                state.withLock { if $0.counting === census { $0.counting = inspector.census() } }
            } catch {
                state.withLock { $0.failure = error }
                _ = wake.wait(timeout: .now() + .seconds(1))
            }
        }
    }
}
