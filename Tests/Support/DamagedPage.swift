import CSQLite
import Foundation

/// Damages a cache file as a failing disk does: overwrites the start of the root page of one
/// table or index (found through `sqlite_schema.rootpage`) while the file's header still reads.
public enum DamagedPage {
    /// Writes 64 bytes of `0xFF` at the root page of `name` in the (closed, checkpointed) file.
    public static func damageRoot(of name: String, in path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw SupportFailure("cannot open \(path) with SQLite")
        }
        let root = integer("SELECT rootpage FROM sqlite_schema WHERE name = '\(name)'", handle)
        let pageSize = integer("PRAGMA page_size", handle)
        sqlite3_close_v2(handle)
        guard let root, let pageSize, root > 1,
            let file = FileHandle(forUpdatingAtPath: path)
        else { throw SupportFailure("no root page for \(name) in \(path)") }
        defer { try? file.close() }
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 64))
    }

    /// Writes 64 bytes of `0xFF` at a leaf page of table `name` other than its root (damage a
    /// statement meets only when it reaches that page); returns the page number.
    @discardableResult
    public static func damageLeaf(of name: String, in path: String) throws -> Int64 {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw SupportFailure("cannot open \(path) with SQLite")
        }
        let leaf = integer(
            "SELECT pageno FROM dbstat WHERE name = '\(name)' AND pagetype = 'leaf' ORDER BY pageno DESC LIMIT 1",
            handle)
        let pageSize = integer("PRAGMA page_size", handle)
        sqlite3_close_v2(handle)
        guard let leaf, let pageSize, let file = FileHandle(forUpdatingAtPath: path) else {
            throw SupportFailure("no leaf page of \(name) in \(path)")
        }
        defer { try? file.close() }
        try file.seek(toOffset: UInt64((leaf - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 64))
        return leaf
    }

    private static func integer(_ sql: String, _ handle: OpaquePointer) -> Int64? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
    }
}
