import CacheCore
import Synchronization

/// A walk of a Redis keyspace that advances one bounded `SCAN` call per `step()`, so a
/// caller can spread it over time (the console gives it a budget per refresh).
public protocol SteppedScan: Sendable {
    /// What a step reports.
    associatedtype Progress: SteppedScanProgress
    /// Makes one `SCAN` call and takes in what it returned.
    func step() throws -> Progress
}

/// How far a ``SteppedScan`` is.
public protocol SteppedScanProgress: Sendable {
    /// Whether the cursor came back to 0: every key was visited.
    var isComplete: Bool { get }
}

extension SteppedScan {
    /// Steps until the walk completes or `budget` has passed (at least one step).
    @discardableResult
    public func run(for budget: Duration) throws -> Progress {
        let deadline = ContinuousClock.now + budget
        var progress = try step()
        while !progress.isComplete && ContinuousClock.now < deadline { progress = try step() }
        return progress
    }

    /// Steps until the walk completes.
    @discardableResult
    public func finish() throws -> Progress {
        var progress = try step()
        while !progress.isComplete { progress = try step() }
        return progress
    }
}

/// Lets one thread at a time step a ``SteppedScan``: a thread that finds another stepping gets
/// the progress so far instead of waiting.
final class StepGate: Sendable {
    private let stepping = Atomic(false)

    /// Runs `step`, or returns `busy()` while another thread runs one.
    func run<Progress>(busy: () -> Progress, _ step: () throws -> Progress) rethrows -> Progress {
        guard stepping.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return busy()
        }
        defer { stepping.store(false, ordering: .releasing) }
        return try step()
    }
}
