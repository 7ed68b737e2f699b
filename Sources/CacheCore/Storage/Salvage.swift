import Foundation

/// A cache file with damaged pages: finding the damage cheaply, and copying every entry that
/// can still be read into a fresh file.
///
/// SQLite reads a file whose header is intact even when a b-tree's root page is garbage, so
/// the damage only shows when a statement touches that table or index — every open or write
/// then fails with "database disk image is malformed". Opening probes each root page (one
/// page read per table and index, whatever the file's size); a store that may quarantine
/// then salvages: the readable entries go into a fresh file, the damaged one is moved aside.
enum Salvage {
    /// The tables and indexes whose root page SQLite cannot read, by name.
    static func damagedRoots(_ connection: SQLiteConnection) throws -> [String] {
        let objects = try connection.withStatement(
            "SELECT type, name, tbl_name FROM sqlite_schema WHERE rootpage > 0 ORDER BY rootpage"
        ) { try $0.rows { ($0.text(0), $0.text(1), $0.text(2)) } }
        var damaged: [String] = []
        for (type, name, table) in objects {
            var probes = [
                type == "index"
                    ? "SELECT 1 FROM \(quoted(table)) INDEXED BY \(quoted(name)) LIMIT 1"
                    : "SELECT 1 FROM \(quoted(table)) NOT INDEXED LIMIT 1"
            ]
            if type == "table" {
                // A WITHOUT ROWID table is its primary key's b-tree, which NOT INDEXED does not
                // force (a covering index may answer instead): name it.
                let keys = try connection.withDynamicStatement("PRAGMA index_list(\(quoted(table)))") { statement in
                    try statement.rows { ($0.text(1), $0.text(3)) }
                }
                probes += keys.filter { $0.1 == "pk" }.map {
                    "SELECT 1 FROM \(quoted(table)) INDEXED BY \(quoted($0.0)) LIMIT 1"
                }
            }
            do {
                for probe in probes { _ = try connection.withDynamicStatement(probe) { try $0.step() } }
            } catch let error as SQLiteError where error.isCorrupt {
                damaged.append(name)
            }
        }
        return damaged
    }

    /// Copies the namespaces and entries that can be read from `source` into `target` (a new
    /// file in the current format); returns how many entries it copied.
    ///
    /// Entry ids are gathered from the table and from each of its indexes (each read until
    /// it meets damage), then every entry is read by id, so one damaged page loses only the
    /// entries stored on it. Entries whose namespace row cannot be read are lost: their
    /// namespace's name is.
    static func copy(from source: SQLiteConnection, into target: SQLiteConnection) throws -> Int {
        let namespaces = readable(
            source, "SELECT id, name, version, policy, generation, created_at, updated_at FROM namespaces"
        ) { row in
            (
                id: row.int64(0), name: row.text(1), version: row.text(2), policy: row.text(3),
                generation: row.int64(4), createdAt: row.int64(5), updatedAt: row.int64(6)
            )
        }
        var ids = Set<Int64>()
        for index in ["", " INDEXED BY entries_by_expiry", " INDEXED BY entries_by_access"] {
            ids.formUnion(readable(source, "SELECT id FROM entries\(index)") { $0.int64(0) })
        }
        let known = Set(namespaces.map(\.id))
        var copied = 0
        try target.writeTransaction {
            for namespace in namespaces {
                try target.withStatement(
                    """
                    INSERT INTO namespaces (id, name, version, policy, generation, created_at, updated_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                    """
                ) { statement in
                    statement.bind(
                        namespace.id, namespace.name, namespace.version, namespace.policy, namespace.generation,
                        namespace.createdAt, namespace.updatedAt)
                    _ = try statement.run()
                }
            }
            for id in ids.sorted() {
                guard try copyEntry(id, from: source, into: target, namespaces: known) else { continue }
                copied += 1
            }
            // The counters and the tag index, derived from what was copied (whether or not
            // the format's triggers keep them as rows arrive).
            try target.execute(
                """
                UPDATE namespaces SET
                    entry_count = (SELECT count(*) FROM entries WHERE namespace_id = namespaces.id),
                    total_bytes = (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = namespaces.id);
                INSERT OR IGNORE INTO entry_tags (tag, entry_id)
                SELECT j.value, e.id FROM entries e, json_each(e.tags) j
                WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL
                """)
        }
        return copied
    }

    /// Copies entry `id` if it can be read and its namespace is known; whether it did.
    private static func copyEntry(
        _ id: Int64, from source: SQLiteConnection, into target: SQLiteConnection, namespaces: Set<Int64>
    ) throws -> Bool {
        let row: [Column?]?
        do {
            row = try source.withStatement(
                """
                SELECT namespace_id, CAST(key AS BLOB), value, size, created_at, expires_at, stale_until,
                       accessed_at, hits, CAST(version AS BLOB), CAST(tags AS BLOB)
                FROM entries WHERE id = ?1
                """
            ) { statement in
                statement.bind(id)
                return try statement.firstRow { row in
                    (Int32(0)..<11).map { column -> Column? in
                        row.isNull(column)
                            ? nil
                            : [0, 3, 4, 5, 6, 7, 8].contains(column)
                                ? .integer(row.int64(column)) : .bytes(row.blob(column))
                    }
                }
            }
        } catch let error as SQLiteError where error.isCorrupt {
            return false
        }
        guard let row, case .integer(let namespace)? = row[0], namespaces.contains(namespace) else { return false }
        try target.withStatement(
            """
            INSERT OR IGNORE INTO entries (id, namespace_id, key, value, size, created_at, expires_at, stale_until,
                accessed_at, hits, version, tags)
            VALUES (?1, ?2, CAST(?3 AS TEXT), ?4, ?5, ?6, ?7, ?8, ?9, ?10, CAST(?11 AS TEXT), CAST(?12 AS TEXT))
            """
        ) { statement in
            statement.bind(id)
            for (offset, value) in row.enumerated() {
                let index = Int32(offset + 2)
                switch value {
                case .integer(let number)?: number.bind(to: statement, at: index)
                case .bytes(let bytes)?: bytes.bind(to: statement, at: index)
                case nil: Int64?.none.bind(to: statement, at: index)
                }
            }
            _ = try statement.run()
        }
        return true
    }

    private enum Column {
        case integer(Int64)
        case bytes(Data)
    }

    /// The rows of `sql` up to the first damaged page.
    private static func readable<T>(
        _ connection: SQLiteConnection, _ sql: String, _ read: (SQLiteStatement) -> T
    ) -> [T] {
        var rows: [T] = []
        _ = try? connection.withDynamicStatement(sql) { statement in
            while try statement.step() { rows.append(read(statement)) }
        }
        return rows
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
