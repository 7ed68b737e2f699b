import CacheCore
import Foundation

/// CacheDeck's trash beside a foreign cache: a SQLite file holding the rows an action
/// removed (each table's rows with the action's number) and the actions, and a folder
/// holding the side files it moved. Attached to the cache's connection, so a batch's rows
/// move in one transaction.
struct ForeignTrash: Sendable {
    /// The trash file.
    let path: String

    /// The folder moved side files go to, one subfolder per action.
    var folder: String { path + ".files" }

    /// The schema name the trash is attached as.
    static let schema = "cachedeck_trash"

    /// Attaches the trash to `connection` (creating it) and makes its actions table.
    func attach(_ connection: SQLiteConnection) throws {
        // ATTACH opens with the cache connection's flags, which do not create files.
        if !FileManager.default.fileExists(atPath: path) {
            _ = try SQLiteConnection(path: path, readOnly: false, create: true, busyTimeout: ForeignFile.busyTimeout)
        }
        try connection.withDynamicStatement("ATTACH DATABASE ? AS \(Self.schema)") { statement in
            statement.bind(values: [.text(path)])
            try statement.step()
        }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(Self.schema).cachedeck_actions (
                id INTEGER PRIMARY KEY, at INTEGER NOT NULL, namespace TEXT NOT NULL, summary TEXT NOT NULL,
                entries INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0, side_files TEXT NOT NULL DEFAULT '',
                undone_at INTEGER, who TEXT NOT NULL DEFAULT '', target TEXT, origin TEXT)
            """)
        let columns = try connection.withDynamicStatement(
            "SELECT name FROM \(Self.schema).pragma_table_info('cachedeck_actions')"
        ) { statement in try statement.rows { $0.text(0) } }
        if !columns.contains("origin") {
            try connection.execute("ALTER TABLE \(Self.schema).cachedeck_actions ADD COLUMN origin TEXT")
        }
    }

    /// Detaches it again.
    static func detach(_ connection: SQLiteConnection) {
        try? connection.execute("DETACH DATABASE \(schema)")
    }

    /// Makes the trash table for `table` (its columns, then `cachedeck_action`).
    static func prepareTable(_ table: String, on connection: SQLiteConnection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(schema).\(table) AS SELECT *, 0 AS cachedeck_action FROM main.\(table) WHERE 0")
    }

    /// The actions kept, newest first (none when there is no trash file).
    func actions() throws -> [ForeignActionRecord] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try ForeignFile(path: path).read { connection in
            try connection.withDynamicStatement(
                "SELECT id, at, namespace, summary, entries, bytes, undone_at, who, target FROM cachedeck_actions ORDER BY id DESC"
            ) { statement in
                try statement.rows { row in
                    ForeignActionRecord(
                        id: row.int64(0), at: row.int64(1), namespace: row.text(2), summary: row.text(3),
                        entries: row.int(4), bytes: row.int64(5), undoneAt: row.optionalInt64(6), who: row.text(7),
                        target: row.isNull(8) ? nil : row.text(8))
                }
            }
        }
    }

    /// Moves `relative` (a side file of `file`) into the action's folder; `false` when it was
    /// already gone.
    func moveAway(_ relative: String, of file: ForeignFile, action: Int64) throws -> Bool {
        guard let source = file.sideFilePath(relative), ForeignFile.size(of: source) != nil else { return false }
        let target = folder + "/\(action)/" + relative
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard rename(source, target) == 0 else {
            throw ForeignCacheError("cannot move \(source) to the trash: \(String(cString: strerror(errno)))")
        }
        // As python-diskcache removes a value file: its folders go too once empty.
        var parent = (source as NSString).deletingLastPathComponent
        while parent.count > file.folder.count, rmdir(parent) == 0 {
            parent = (parent as NSString).deletingLastPathComponent
        }
        return true
    }

    /// Moves a side file back where it was, unless something is there now.
    func moveBack(_ relative: String, of file: ForeignFile, action: Int64) throws {
        guard let target = file.sideFilePath(relative), !FileManager.default.fileExists(atPath: target) else { return }
        let source = folder + "/\(action)/" + relative
        guard FileManager.default.fileExists(atPath: source) else { return }
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard rename(source, target) == 0 else {
            throw ForeignCacheError("cannot move \(source) back: \(String(cString: strerror(errno)))")
        }
    }
}
