import CSQLite
import Foundation

/// How a connection waits for a lock another connection holds: short sleeps that double from
/// 25 µs up to 1 ms, until the busy timeout has been slept.
///
/// SQLite's own `sqlite3_busy_timeout` sleeps 1 ms at the first retry and backs off to
/// 100 ms, so with several processes writing, an operation that finds the lock taken for a
/// few microseconds waits a millisecond or more.
enum BusyWait {
    /// The first sleep; each retry doubles it up to ``longestSleep``.
    static let firstSleep = 25
    /// The longest single sleep, in microseconds.
    static let longestSleep = 1000

    /// Makes `db` wait like this for at most `timeout` before a call fails with SQLITE_BUSY.
    static func install(on db: OpaquePointer, timeout: Duration) {
        let micros = timeout.components.seconds * 1_000_000 + timeout.components.attoseconds / 1_000_000_000_000
        // The timeout travels as the context pointer's value (never dereferenced); +1 keeps it non-null.
        let context = UnsafeMutableRawPointer(bitPattern: Int(clamping: max(0, micros)) + 1)
        sqlite3_busy_handler(
            db, { context, attempt in BusyWait.retry(attempt: Int(attempt), context: context) }, context)
    }

    /// Sleeps before retry `attempt` (0 first) and returns 1, or returns 0 once the timeout
    /// has been slept.
    private static func retry(attempt: Int, context: UnsafeMutableRawPointer?) -> Int32 {
        let timeout = Int(bitPattern: context) - 1
        let sleep = sleepBefore(attempt: attempt)
        guard slept(before: attempt) + sleep <= timeout else { return 0 }
        usleep(UInt32(sleep))
        return 1
    }

    /// The sleep before retry `attempt`, in microseconds.
    static func sleepBefore(attempt: Int) -> Int {
        min(longestSleep, firstSleep << min(attempt, 6))
    }

    /// The total slept before retry `attempt`, in microseconds.
    static func slept(before attempt: Int) -> Int {
        // 25 · (2^n − 1) while the sleeps double (n ≤ 6), then 1 ms per retry.
        let doubling = min(attempt, 6)
        return firstSleep * ((1 << doubling) - 1) + max(0, attempt - 6) * longestSleep
    }
}
