import Foundation

@testable import CacheCore

extension TestStore {
    /// Runs SQL statements on a separate raw connection (to shape rows the API would not write).
    func execute(_ sql: String) throws { try rawExecute(path: path, sql) }

    /// The first column of every row of `sql`, on a separate raw connection.
    func column(_ sql: String) throws -> [Int64] {
        let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: .seconds(5))
        return try connection.withDynamicStatement(sql) { try $0.rows { $0.int64(0) } }
    }

    /// A read-only store on the same file with the same clock, as an inspecting tool opens it.
    func inspectionStore() throws -> CacheStore {
        var options = StoreOptions.inspection()
        options.clock = clock
        return try CacheStore(path: path, options: options)
    }
}

extension Inspector {
    /// Every page of `query`, following the cursors to the end.
    func allPages(_ query: EntryQuery) throws -> [EntryPage] {
        var pages = [try entries(query)]
        while let next = pages[pages.count - 1].next, pages.count < 10_000 {
            var following = query
            following.after = next
            pages.append(try entries(following))
        }
        return pages
    }

    /// The row ids of every page of `query`, in order.
    func allIDs(_ query: EntryQuery) throws -> [Int64] {
        try allPages(query).flatMap { $0.rows.map(\.id) }
    }
}
