import CacheCore
import Foundation
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

/// Where one `SCAN` walk of a node is: the one state machine behind every scan of a keyspace
/// (the census, the keyspace browser).
struct ScanCursor: Sendable, Hashable {
    /// The cursor to send next.
    private(set) var cursor = "0"
    /// `SCAN` calls answered so far.
    private(set) var batches = 0
    /// Whether the cursor came back to 0.
    private(set) var isComplete = false
    /// `DBSIZE` when the walk began, which bounds its calls (``ScanLimit``).
    var keysInDatabase: Int64?

    /// The `SCAN` call from here: `MATCH` `pattern` when given, `COUNT` `count`.
    func command(match pattern: Data?, count: Int) -> [RedisArgument] {
        ["SCAN", RedisArgument(cursor)] + (pattern.map { ["MATCH", RedisArgument($0)] } ?? [])
            + ["COUNT", RedisArgument(count)]
    }

    /// Takes in a `SCAN` reply: moves the cursor and returns the keys it named. Throws when
    /// the walk has taken more calls than its ``ScanLimit`` (a server whose cursor never
    /// comes back to 0).
    mutating func advance(with reply: RedisReply, from endpoint: String) throws(RedisError) -> [Data] {
        if case .error(let message) = reply { throw RedisError(serverMessage: message, endpoint: endpoint) }
        guard let parts = reply.array, parts.count == 2, let next = parts[0].string,
            let keys = parts[1].array?.compactMap(\.data)
        else { throw .server("SCAN gave an unexpected reply") }
        cursor = next
        batches += 1
        isComplete = next == "0"
        if !isComplete { try ScanLimit(keysInDatabase: keysInDatabase).check(batches, endpoint: endpoint) }
        return keys
    }
}
