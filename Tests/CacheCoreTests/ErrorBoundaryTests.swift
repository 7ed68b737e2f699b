import Foundation
import Testing

@testable import CacheCore

@Suite struct ErrorBoundaryTests {
    /// The coherence monitor has its own connection: its failures used to leave
    /// `synchronize()` as the internal SQLite error type.
    @Test func synchronizeThrowsCacheErrorsNamingTheStatement() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("h", key: String.self, value: Int.self, policy: .hybrid)
        try cache.set(1, for: "a")
        try rawExecute(path: fixture.path, "DROP TABLE invalidations")
        do {
            try fixture.store.synchronize()
            Issue.record("synchronize() did not fail on a file without its journal")
        } catch let error as CacheError {
            guard case .sqlite(_, let message) = error else {
                Issue.record("unexpected case \(error)")
                return
            }
            #expect(message.contains("no such table: invalidations"))
            #expect(message.contains("(in: SELECT"), "the failing statement is kept for logs: \(message)")
        } catch {
            Issue.record("\(type(of: error)) escaped the public API: \(error)")
        }
    }

    @Test func sqliteErrorsCarryTheirStatement() throws {
        let fixture = try TestStore()
        let connection = try SQLiteConnection(
            path: fixture.path, readOnly: false, create: false, busyTimeout: .seconds(1))
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT * FROM nowhere") }
        do {
            _ = try connection.prepare("SELECT nothing FROM nowhere")
        } catch let error as SQLiteError {
            #expect(error.statement == "SELECT nothing FROM nowhere")
            #expect(CacheError(error, path: fixture.path).description.hasSuffix("(in: SELECT nothing FROM nowhere)"))
        }
    }
}
