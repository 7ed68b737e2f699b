import Foundation
import Synchronization

/// A thread of its own that runs a body again and again — sleeping the delay the body
/// returns in between — until stopped. Stopping wakes it from its sleep at once.
///
/// A dedicated thread, not a task: the body blocks on SQLite, which must not hold up the
/// Swift concurrency pool.
package final class BackgroundWorker: Sendable {
    private let isStopping = Atomic(false)
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the thread, which calls `body` after `firstDelay`.
    package init(name: String, firstDelay: Duration = .zero, body: @escaping @Sendable () -> Duration) {
        let thread = Thread { [self] in
            var delay = firstDelay
            while !isStopping.load(ordering: .acquiring) {
                if delay > .zero {
                    let nanoseconds = Int(min(delay.nanosecondCount, 3_600_000_000_000))
                    _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
                    if isStopping.load(ordering: .acquiring) { break }
                }
                delay = body()
            }
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the thread and waits for the body to return (if it is running). Only the first
    /// call waits; later calls return at once.
    package func stop() {
        guard signalStop() else { return }
        exited.wait()
    }

    /// Asks the thread to stop without waiting; `true` for the first request.
    @discardableResult
    func signalStop() -> Bool {
        guard isStopping.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        wake.signal()
        return true
    }
}
