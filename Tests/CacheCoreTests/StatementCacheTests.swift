import Testing

@testable import CacheCore

/// A connection keeps the statements built at run time (a user's filters are without number)
/// prepared up to a fixed count, dropping the least recently used.
@Suite struct StatementCacheTests {
    @Test func statementsBuiltAtRunTimeAreKeptUpToTheLimitLeastRecentlyUsedFirstOut() throws {
        let folder = TemporaryFolder()
        let connection = try SQLiteConnection(
            path: folder.file(), readOnly: false, create: true, busyTimeout: .seconds(1))
        let limit = SQLiteConnection.dynamicStatementLimit
        func select(_ number: Int) throws -> Int64? {
            try connection.withDynamicStatement("SELECT \(number) + ?1") { statement in
                statement.bind(Int64(1))
                return try statement.firstRow { $0.int64(0) }
            }
        }
        for number in 0..<limit { #expect(try select(number) == Int64(number + 1)) }
        #expect(connection.preparedDynamicStatements.count == limit)
        // 0 is used again, so 1 is now the least recently used and makes room for the next.
        #expect(try select(0) == 1)
        #expect(try select(limit) == Int64(limit + 1))
        let prepared = connection.preparedDynamicStatements
        #expect(prepared.count == limit)
        #expect(prepared.contains("SELECT 0 + ?1"))
        #expect(!prepared.contains("SELECT 1 + ?1"))
        #expect(prepared.contains("SELECT \(limit) + ?1"))
        for number in 0..<(limit * 10) { _ = try select(number) }
        #expect(connection.preparedDynamicStatements.count == limit)
        #expect(try select(1) == 2, "a dropped statement is prepared again")
    }
}
