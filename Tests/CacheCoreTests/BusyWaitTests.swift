import Foundation
import Testing

@testable import CacheCore

/// Waiting for another connection's lock: short doubling sleeps, then a clear busy error
/// once the timeout has been slept.
@Suite struct BusyWaitTests {
    @Test func sleepsDoubleFrom25MicrosecondsToOneMillisecondAndAddUp() {
        #expect((0..<9).map(BusyWait.sleepBefore(attempt:)) == [25, 50, 100, 200, 400, 800, 1000, 1000, 1000])
        for attempt in 0..<40 {
            let total = (0..<attempt).map(BusyWait.sleepBefore(attempt:)).reduce(0, +)
            #expect(BusyWait.slept(before: attempt) == total, "attempt \(attempt)")
        }
    }

    @Test func aWriterWaitsForTheLockAndGivesUpWithBusyAfterItsTimeout() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self)
        try cache.set(1, for: "a")
        let holder = try SQLiteConnection(path: fixture.path, readOnly: false, create: false, busyTimeout: .seconds(5))
        try holder.execute("BEGIN IMMEDIATE")
        let impatient = try fixture.reopen { $0.busyTimeout = .milliseconds(30) }
        let other = try impatient.cache("n", key: String.self, value: Int.self)
        #expect(throws: CacheError.busy(path: fixture.path)) { try other.set(2, for: "a") }
        #expect(try other.get("a") == 1, "reads never wait for a writer")

        // Released while the patient store waits: its set goes through.
        let released = DispatchSemaphore(value: 0)
        let thread = Thread {
            usleep(20_000)
            try? holder.execute("COMMIT")
            released.signal()
        }
        thread.start()
        try cache.set(3, for: "a")
        released.wait()
        #expect(try other.get("a") == 3)
        try impatient.close()
    }
}
