import CSQLite
import Foundation

/// A candidate layout of `entries` for issue #26 (``WritePathBenchmark/compareLayouts()``):
/// the format-9 tables a write touches (namespaces, entries, its indexes, the counter and tag
/// triggers), varied one way each, built in a file of its own and written in C as CacheCore
/// writes (``LayoutWriter``). Fixed SQL text only.
struct EntryLayout {
    /// How entries are stored and named.
    enum Table {
        /// Format 9: a rowid table, `id` its rowid, and a unique `(namespace_id, key)` index.
        case rowid
        /// `WITHOUT ROWID` by `(namespace_id, key)`, `id` kept through a unique index of its own.
        case keyedWithID
        /// `WITHOUT ROWID` by `(namespace_id, key)`, no `id` at all (tags name entries by key).
        case keyed
    }

    let name: String
    let table: Table
    /// The expiry index's columns.
    var expiryColumns = "namespace_id, expires_at, stale_until, size, created_at"
    var pageSize = 4096
    /// CacheCore's writer zeroes removed cells (`secure_delete = FAST`).
    var secureDelete = true
    /// Rows per statement of a batch, largest first (CacheCore's: 32, then 8, then one by one).
    var groupRows = [32, 8, 1]
    /// One trigger per event keeps both the counters and the tags (each trigger a row fires
    /// runs as a sub-program of its own), instead of one trigger for each.
    var mergedTriggers = false

    static let candidates: [EntryLayout] = [
        EntryLayout(name: "format 9", table: .rowid),
        EntryLayout(name: "format 9, no secure_delete", table: .rowid, secureDelete: false),
        EntryLayout(name: "format 9, batches of 128 rows a statement", table: .rowid, groupRows: [128, 32, 8, 1]),
        EntryLayout(name: "format 9, one trigger per event", table: .rowid, mergedTriggers: true),
        EntryLayout(name: "format 9, 2048-byte pages", table: .rowid, pageSize: 2048),
        EntryLayout(name: "format 9, 1024-byte pages", table: .rowid, pageSize: 1024),
        EntryLayout(name: "expiry index by time first", table: .rowid, expiryColumns: "expires_at, namespace_id, stale_until, size, created_at"),
        EntryLayout(name: "expiry index w/o created_at", table: .rowid, expiryColumns: "namespace_id, expires_at, stale_until, size"),
        EntryLayout(name: "WITHOUT ROWID + id index", table: .keyedWithID),
        EntryLayout(name: "WITHOUT ROWID, no id", table: .keyed),
    ]

    /// What a row of a tag names its entry by.
    private var entryRef: (columns: String, new: String, old: String) {
        table == .keyed
            ? ("namespace_id INTEGER NOT NULL, key TEXT NOT NULL", "new.namespace_id, new.key", "namespace_id = old.namespace_id AND key = old.key")
            : ("entry_id INTEGER NOT NULL, namespace_id INTEGER, key TEXT", "new.id, new.namespace_id, new.key", "entry_id = old.id")
    }

    var schema: String {
        let idColumn =
            switch table {
            case .rowid: "id INTEGER PRIMARY KEY,"
            case .keyedWithID: "id INTEGER NOT NULL,"
            case .keyed: ""
            }
        let key = table == .rowid ? "UNIQUE (namespace_id, key))" : "PRIMARY KEY (namespace_id, key)) WITHOUT ROWID"
        let tagKey = table == .keyed ? "tag, namespace_id, key" : "tag, entry_id"
        return """
            CREATE TABLE namespaces (
                id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, version TEXT NOT NULL DEFAULT '',
                policy TEXT NOT NULL DEFAULT '{}', entry_count INTEGER NOT NULL DEFAULT 0,
                total_bytes INTEGER NOT NULL DEFAULT 0, generation INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
            CREATE TABLE entries (
                \(idColumn) namespace_id INTEGER NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                size INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER, stale_until INTEGER,
                accessed_at INTEGER NOT NULL, hits INTEGER NOT NULL DEFAULT 0, version TEXT NOT NULL DEFAULT '',
                tags TEXT, sort_value INTEGER, \(key);
            \(table == .keyedWithID ? "CREATE UNIQUE INDEX entries_by_id ON entries (id);" : "")
            CREATE INDEX entries_by_expiry ON entries (\(expiryColumns));
            CREATE INDEX entries_by_sort_value ON entries (namespace_id, sort_value) WHERE sort_value IS NOT NULL;
            CREATE TABLE entry_tags (tag TEXT NOT NULL, \(entryRef.columns), PRIMARY KEY (\(tagKey))) WITHOUT ROWID;
            CREATE TRIGGER entries_tags_delete AFTER DELETE ON entries WHEN old.tags IS NOT NULL BEGIN
                DELETE FROM entry_tags WHERE \(entryRef.old);
            END;
            """ + (mergedTriggers ? mergedCounterAndTagTriggers : counterAndTagTriggers)
    }

    private var counterAndTagTriggers: String {
        """
        CREATE TRIGGER entries_count_insert AFTER INSERT ON entries BEGIN
            UPDATE namespaces SET entry_count = entry_count + 1, total_bytes = total_bytes + new.size
            WHERE id = new.namespace_id;
        END;
        CREATE TRIGGER entries_count_resize AFTER UPDATE OF size ON entries WHEN new.size != old.size BEGIN
            UPDATE namespaces SET total_bytes = total_bytes + new.size - old.size WHERE id = new.namespace_id;
        END;
        CREATE TRIGGER entries_tags_insert AFTER INSERT ON entries WHEN new.tags IS NOT NULL BEGIN
            INSERT OR IGNORE INTO entry_tags SELECT value, \(entryRef.new) FROM json_each(new.tags);
        END;
        CREATE TRIGGER entries_tags_update AFTER UPDATE OF tags ON entries WHEN new.tags IS NOT old.tags BEGIN
            DELETE FROM entry_tags WHERE \(entryRef.old);
            INSERT OR IGNORE INTO entry_tags SELECT value, \(entryRef.new) FROM json_each(new.tags) WHERE new.tags IS NOT NULL;
        END;
        """
    }

    /// An insert's counters and tags in one trigger, an update's (of size or tags) in another.
    private var mergedCounterAndTagTriggers: String {
        """
        CREATE TRIGGER entries_insert AFTER INSERT ON entries BEGIN
            UPDATE namespaces SET entry_count = entry_count + 1, total_bytes = total_bytes + new.size
            WHERE id = new.namespace_id;
            INSERT OR IGNORE INTO entry_tags SELECT value, \(entryRef.new) FROM json_each(new.tags) WHERE new.tags IS NOT NULL;
        END;
        CREATE TRIGGER entries_update AFTER UPDATE OF size, tags ON entries
        WHEN new.size != old.size OR new.tags IS NOT old.tags BEGIN
            UPDATE namespaces SET total_bytes = total_bytes + new.size - old.size
            WHERE id = new.namespace_id AND new.size != old.size;
            DELETE FROM entry_tags WHERE \(entryRef.old) AND new.tags IS NOT old.tags;
            INSERT OR IGNORE INTO entry_tags SELECT value, \(entryRef.new) FROM json_each(new.tags)
            WHERE new.tags IS NOT NULL AND new.tags IS NOT old.tags;
        END;
        """
    }

    /// CacheCore's upsert of `rows` rows (11 parameters each, in the order of
    /// `upsertEntry(namespaceID:_:version:now:)`; when `checked`, one row and a 12th, the
    /// namespace's name: the autocommit set's liveness check). With an `id` column, a checked
    /// row takes the next id by `max(id)`, unchecked rows bind it as `?(12r + 12)`.
    func upsert(rows: Int, checked: Bool) -> String {
        let withID = table == .keyedWithID
        let width = withID && !checked ? 12 : 11
        let values = (0..<rows).map { row in
            let p = (1...width).map { "?\(row * width + $0)" }
            let namespace = checked ? "(SELECT id FROM namespaces WHERE id = \(p[0]) AND name = ?\(rows * width + 1))" : p[0]
            let id = withID ? (checked ? "(SELECT coalesce(max(id), 0) + 1 FROM entries), " : "\(p[11]), ") : ""
            return "(\(id)\(namespace), \(p[1]), \(p[2]), \(p[3]), \(p[4]), \(p[5]), \(p[6]), \(p[9]), \(p[7]), \(p[8]), \(p[10]))"
        }
        return """
            INSERT \(checked ? "OR IGNORE " : "")INTO entries (\(withID ? "id, " : "")namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags, sort_value)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags,
                sort_value = excluded.sort_value
            """
    }

    /// The point read CacheCore's `remove` runs first: the row's name (id, or namespace and
    /// key), its namespace and size.
    var findForDelete: String {
        """
        SELECT \(table == .keyed ? "e.key" : "e.id"), e.namespace_id, e.size
        FROM namespaces n JOIN entries e ON e.namespace_id = n.id AND e.key = ?2 WHERE n.name = ?1
        """
    }

    /// CacheCore's point read: the entry through the namespace id and name.
    var lookup: String {
        """
        SELECT \(table == .keyed ? "e.key" : "e.id"), e.value, e.created_at, e.expires_at, e.stale_until, e.version, e.tags
        FROM namespaces n LEFT JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
        WHERE n.id = ?1 AND n.name = ?3
        """
    }

    /// The delete of the row `findForDelete` found (`?1` its id or key, `?2` its namespace).
    var delete: String {
        table == .keyed
            ? "DELETE FROM entries WHERE namespace_id = ?2 AND key = ?1" : "DELETE FROM entries WHERE id = ?1"
    }
}

/// Writes an ``EntryLayout``'s file in C as CacheCore writes its own: an autocommit set is one
/// upsert that checks the namespace is live; a batch is `BEGIN IMMEDIATE`, the liveness
/// check, upserts of 32 and 8 rows a statement, `COMMIT`; a remove is `BEGIN IMMEDIATE`, the
/// point read, the delete, the counter update, `COMMIT`. The writer's settings are CacheCore's.
final class LayoutWriter {
    let layout: EntryLayout
    let path: String
    private let connection: RawConnection
    private let set: RawStatement
    private let groups: [(rows: Int, statement: RawStatement)]
    private let live: RawStatement
    /// `max(id)`, for a layout that assigns ids itself.
    private let lastID: RawStatement?
    private let find: RawStatement
    private let delete: RawStatement
    private let counters: RawStatement
    private let transaction: RawTransaction
    private let lookup: RawStatement
    private let scan: RawStatement

    /// Namespaces every layout file has, in id order (as `core` creates them).
    static let namespaces = ["reads", "json", "sorted", "writes", "sweep", "zz-tail"]

    init(_ layout: EntryLayout, path: String) throws {
        self.layout = layout
        self.path = path
        let connection = try RawConnection(path: path, create: true, pageSize: layout.pageSize)
        self.connection = connection
        try connection.execute(
            "PRAGMA secure_delete = \(layout.secureDelete ? "FAST" : "OFF"); PRAGMA cache_size = -32768")
        try connection.execute(layout.schema)
        for name in Self.namespaces {
            try connection.execute(
                "INSERT INTO namespaces (name, created_at, updated_at) VALUES ('\(name)', 0, 0)")
        }
        set = try connection.prepare(layout.upsert(rows: 1, checked: true))
        groups = try layout.groupRows.map { ($0, try connection.prepare(layout.upsert(rows: $0, checked: false))) }
        live = try connection.prepare("SELECT 1 FROM namespaces WHERE id = ?1 AND name = ?2")
        lastID =
            layout.table == .keyedWithID ? try connection.prepare("SELECT coalesce(max(id), 0) FROM entries") : nil
        find = try connection.prepare(layout.findForDelete)
        delete = try connection.prepare(layout.delete)
        counters = try connection.prepare(
            "UPDATE namespaces SET entry_count = entry_count - 1, total_bytes = total_bytes - ?2 WHERE id = ?1")
        transaction = try RawTransaction(connection)
        lookup = try connection.prepare(layout.lookup)
        scan = try connection.prepare("SELECT count(*), sum(length(value)) FROM entries WHERE namespace_id = ?1")
    }

    /// The value of `key`, copied out (as a `get` does), or `nil`.
    func get(_ namespace: String, _ key: String) throws -> Data? {
        let handle = lookup.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_int64(handle, 1, Self.namespaceID(namespace))
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        sqlite3_bind_text(handle, 3, namespace, -1, sqliteTransient)
        guard sqlite3_step(handle) == SQLITE_ROW, sqlite3_column_type(handle, 0) != SQLITE_NULL else { return nil }
        return Data(bytes: sqlite3_column_blob(handle, 1), count: Int(sqlite3_column_bytes(handle, 1)))
    }

    /// Reads every value of `namespace` (a scan's page work); returns how many.
    func scanValues(_ namespace: String) throws -> Int {
        defer { sqlite3_reset(scan.handle) }
        sqlite3_bind_int64(scan.handle, 1, Self.namespaceID(namespace))
        guard sqlite3_step(scan.handle) == SQLITE_ROW else { throw BenchError("scan") }
        return Int(sqlite3_column_int64(scan.handle, 0))
    }

    /// The id of namespace `name` (its place in ``namespaces``).
    static func namespaceID(_ name: String) -> Int64 {
        Int64((namespaces.firstIndex(of: name) ?? 0) + 1)
    }

    /// Upserts `value` under `key` in one autocommit statement.
    func set(_ namespace: String, _ key: String, _ value: Data, sortValue: Int64? = nil) throws {
        defer { sqlite3_reset(set.handle) }
        bind(set, row: 0, width: 11, namespace, key, value, now: wallClockMilliseconds(), sortValue: sortValue, id: nil)
        sqlite3_bind_text(set.handle, 12, namespace, -1, sqliteTransient)
        try connection.check(sqlite3_step(set.handle), "set")
    }

    /// Upserts `value` under each of `keys` in one transaction.
    func set(_ namespace: String, _ keys: [String], _ value: Data) throws {
        try transaction.run {
            sqlite3_bind_int64(live.handle, 1, Self.namespaceID(namespace))
            sqlite3_bind_text(live.handle, 2, namespace, -1, sqliteTransient)
            let isLive = sqlite3_step(live.handle) == SQLITE_ROW
            sqlite3_reset(live.handle)
            guard isLive else { throw BenchError("namespace \(namespace) not live") }
            var nextID: Int64 = 0
            if let lastID {
                guard sqlite3_step(lastID.handle) == SQLITE_ROW else { throw BenchError("no max(id)") }
                nextID = sqlite3_column_int64(lastID.handle, 0) + 1
                sqlite3_reset(lastID.handle)
            }
            let now = wallClockMilliseconds()
            let width: Int32 = layout.table == .keyedWithID ? 12 : 11
            var start = 0
            for (rows, statement) in groups {
                while keys.count - start >= rows {
                    for row in 0..<rows {
                        bind(statement, row: Int32(row), width: width, namespace, keys[start + row], value, now: now,
                            sortValue: nil, id: nextID + Int64(start + row))
                    }
                    let code = sqlite3_step(statement.handle)
                    sqlite3_reset(statement.handle)
                    try connection.check(code, "batched upsert")
                    start += rows
                }
            }
        }
    }

    /// Deletes `key` with its counters in one transaction; returns whether it was there.
    func remove(_ namespace: String, _ key: String) throws -> Bool {
        var found = false
        try transaction.run {
            sqlite3_bind_text(find.handle, 1, namespace, -1, sqliteTransient)
            sqlite3_bind_text(find.handle, 2, key, -1, sqliteTransient)
            defer { sqlite3_reset(find.handle) }
            guard sqlite3_step(find.handle) == SQLITE_ROW else { return }
            sqlite3_bind_value(delete.handle, 1, sqlite3_column_value(find.handle, 0))
            sqlite3_bind_int64(delete.handle, 2, sqlite3_column_int64(find.handle, 1))
            let deleted = sqlite3_step(delete.handle)
            sqlite3_reset(delete.handle)
            try connection.check(deleted, "delete")
            sqlite3_bind_int64(counters.handle, 1, sqlite3_column_int64(find.handle, 1))
            sqlite3_bind_int64(counters.handle, 2, sqlite3_column_int64(find.handle, 2))
            let counted = sqlite3_step(counters.handle)
            sqlite3_reset(counters.handle)
            try connection.check(counted, "counters")
            found = true
        }
        return found
    }

    /// Binds one row's parameters at `row * width + 1`…, as CacheCore binds them.
    private func bind(
        _ statement: RawStatement, row: Int32, width: Int32, _ namespace: String, _ key: String, _ value: Data,
        now: Int64, sortValue: Int64?, id: Int64?
    ) {
        let handle = statement.handle
        let base = row * width
        let expires = now + FloorBaseline.lifetime
        sqlite3_bind_int64(handle, base + 1, Self.namespaceID(namespace))
        sqlite3_bind_text(handle, base + 2, key, -1, sqliteTransient)
        value.withUnsafeBytes { _ = sqlite3_bind_blob(handle, base + 3, $0.baseAddress, Int32($0.count), sqliteTransient) }
        sqlite3_bind_int64(handle, base + 4, Int64(key.utf8.count + value.count))
        sqlite3_bind_int64(handle, base + 5, now)
        sqlite3_bind_int64(handle, base + 6, expires)
        sqlite3_bind_int64(handle, base + 7, expires)
        sqlite3_bind_text(handle, base + 8, "", -1, sqliteTransient)
        sqlite3_bind_null(handle, base + 9)
        sqlite3_bind_int64(handle, base + 10, now)
        if let sortValue { sqlite3_bind_int64(handle, base + 11, sortValue) } else { sqlite3_bind_null(handle, base + 11) }
        if width == 12, let id { sqlite3_bind_int64(handle, base + 12, id) }
    }
}
