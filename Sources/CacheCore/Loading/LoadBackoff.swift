import Synchronization

/// How long a key whose load failed waits before its loader is called again: `initial` after
/// the first failure, doubling with each further failure up to `maximum`.
public struct LoadBackoff: Sendable, Hashable {
    /// The wait after the first failure.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// Creates a back-off; the defaults wait 1 s, then 2 s, 4 s … up to a minute.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` consecutive failures (at least one).
    func delay(afterFailures failures: Int) -> Int64 {
        let initial = max(1, self.initial.milliseconds)
        let doublings = min(max(0, failures - 1), 40)
        return min(maximum.milliseconds, initial << doublings)
    }
}

/// The keys of one namespace whose last load failed, and until when they back off.
final class LoadBackoffTable: Sendable {
    private struct Failure {
        var count: Int
        var retryAt: Int64
        var error: any Error
    }

    private let failures = Mutex<[String: Failure]>([:])

    /// The last error for `key` while it is backing off at `now`, else `nil`.
    func blockingError(for key: String, now: Int64) -> (any Error)? {
        failures.withLock { failures in
            guard let failure = failures[key], now < failure.retryAt else { return nil }
            return failure.error
        }
    }

    /// Records a failed load of `key` at `now`.
    func recordFailure(_ key: String, error: any Error, now: Int64, backoff: LoadBackoff) {
        failures.withLock { failures in
            let count = (failures[key]?.count ?? 0) + 1
            failures[key] = Failure(
                count: count, retryAt: now + backoff.delay(afterFailures: count), error: error)
        }
    }

    /// Forgets the failures of `key` after a successful load.
    func recordSuccess(_ key: String) {
        _ = failures.withLock { $0.removeValue(forKey: key) }
    }
}
