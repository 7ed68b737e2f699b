import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation
import Synchronization

/// Runs a stepped `SCAN` walk (a RedisStore census, a keyspace scan) on a thread of its own,
/// one bounded batch after another, so the console's reads only look at the latest results:
/// the walk runs at the server's pace, and no read waits for it. With a recount interval,
/// complete results are shown until the next walk completes, one interval later;
/// ``restart()`` drops them.
final class ScanRunner<Scan: SteppedScan & AnyObject>: Sendable {
    private let make: @Sendable () -> Scan
    private let recount: Duration?
    private let state: Mutex<State>
    /// Wakes the thread early: a restart or a stop.
    private let wake = DispatchSemaphore(value: 0)

    private struct State {
        var running: Scan
        var shown: Scan?
        /// The last step's failure (the server went away), until a step succeeds.
        var failure: (any Error)?
        var isStopped = false
    }

    /// Carries on with `first` (a walk already begun), or starts the one `make` returns; with
    /// `recount`, a new one that long after each completes.
    init(recount: Duration?, first: Scan? = nil, make: @escaping @Sendable () -> Scan) {
        self.make = make
        self.recount = recount
        state = Mutex(State(running: first ?? make()))
        Thread.detachNewThread { [self] in run() }
    }

    /// The walk to show: the last complete one, else the one running (lower bounds).
    /// Throws the last step's failure while the server cannot be read.
    func current() throws -> Scan {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.shown ?? state.running
        }
    }

    /// Drops the results shown and walks afresh.
    func restart() {
        state.withLock { state in
            state.running = make()
            state.shown = nil
            state.failure = nil
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
            let (scan, isStopped) = state.withLock { ($0.running, $0.isStopped) }
            if isStopped { return }
            do {
                let progress = try scan.step()
                state.withLock { $0.failure = nil }
                guard progress.isComplete else { continue }
                state.withLock { if $0.running === scan { $0.shown = scan } }
                guard let recount else {
                    wake.wait()
                    continue
                }
                _ = wake.wait(timeout: .now() + .milliseconds(Int(recount.milliseconds)))
                state.withLock { if $0.running === scan { $0.running = make() } }
            } catch {
                state.withLock { $0.failure = error }
                _ = wake.wait(timeout: .now() + .seconds(1))
            }
        }
    }
}
