import Foundation
import Synchronization

/// The source of "now" for expiry decisions, in milliseconds since the Unix epoch.
///
/// Inject a ``ManualClock`` in tests to move time without sleeping.
public protocol CacheClock: Sendable {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}

/// The wall clock.
public struct SystemClock: CacheClock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time in milliseconds.
    public func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

/// A clock that moves only when told to: for tests and simulations.
public final class ManualClock: CacheClock {
    private let now: Mutex<Int64>

    /// Creates a clock showing `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        now = Mutex(start.millisecondsSince1970)
    }

    /// The time the clock shows, in milliseconds.
    public func nowMilliseconds() -> Int64 { now.withLock { $0 } }

    /// Moves the clock forward (or backward, with a negative duration).
    public func advance(by duration: Duration) {
        now.withLock { $0 += duration.milliseconds }
    }

    /// Sets the clock to `date`.
    public func set(to date: Date) {
        now.withLock { $0 = date.millisecondsSince1970 }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    @usableFromInline package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedClamped(by: 1000).addingClamped(attoseconds / 1_000_000_000_000_000)
    }

    /// The duration in whole nanoseconds (saturating far beyond any load time).
    package var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : scaled &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds with their fraction.
    package var fractionalMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}

extension Date {
    /// Milliseconds since the Unix epoch, rounded toward negative infinity.
    package var millisecondsSince1970: Int64 { Int64(saturating: (timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The date `milliseconds` after the Unix epoch.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
