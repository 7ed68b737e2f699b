import Synchronization

/// A flag one task sets and a loop on another checks: "stop now".
final class StopSignal: Sendable {
    private let flag = Atomic(false)

    /// Asks the loop to stop.
    func stop() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether it was asked to.
    var isStopped: Bool { flag.load(ordering: .relaxed) }
}
