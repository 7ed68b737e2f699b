import CacheCore
import Foundation

/// Actions on a foreign cache, done the way its library would (python-diskcache: delete the
/// row, its triggers fix the counters, and the value file goes; requests-cache: the redirects
/// pointing at removed responses go too), each removed row kept in the trash for undo.
extension ForeignCache {
    /// The most entries one action removes.
    package static let maximumTargets = 1_000_000
    /// Rows moved per write transaction: the owning app waits at most this long for its lock.
    static let batchSize = 500

    /// The trash beside the cache: beside a python-diskcache folder rather than in it (its
    /// `check()` reports files it does not know), one for all of a FanoutCache's shards.
    /// Where the trash is.
    package var trashPath: String { trash.path }

    var trash: ForeignTrash {
        switch kind {
        case .diskCache: ForeignTrash(path: layout.files[0].folder + ".cachedeck-trash")
        case .fanoutCache: ForeignTrash(path: path + ".cachedeck-trash")
        default: ForeignTrash(path: path + ".cachedeck-trash")
        }
    }

    /// Measures what `selection` removes from `namespace` and captures those rows.
    package func preview(_ selection: ForeignSelection, namespace: String, now: Int64) throws -> ForeignActionPreview {
        try mapped {
            let section = try section(namespace)
            guard section.table.allowsActions else {
                throw ForeignCacheError("\(kind.rawValue) caches are kept consistent by their owner: read-only here")
            }
            return try section.preview(selection, now: now)
        }
    }

    /// Removes the rows `preview` captured (those still as captured), moving them to the trash.
    /// `progress` hears how many are done after every batch and stops the action by returning
    /// `false` (what it removed so far stays undoable).
    package func run(
        _ preview: ForeignActionPreview, now: Int64, progress: (_ done: Int, _ total: Int) -> Bool = { _, _ in true }
    ) throws -> ForeignActionResult {
        try mapped { try section(preview.namespace).remove(preview, into: trash, now: now, progress: progress) }
    }

    /// Puts back what action `id` removed (rows whose key was written again since stay as
    /// they are); returns how many entries came back.
    package func undo(action id: Int64, now: Int64) throws -> Int {
        guard let record = try trash.actions().first(where: { $0.id == id }) else {
            throw ForeignCacheError("no action #\(id) in \(trash.path)")
        }
        guard record.undoneAt == nil else { throw ForeignCacheError("action #\(id) was already undone") }
        return try mapped { try section(record.namespace).restore(action: id, from: trash, now: now) }
    }

    /// The actions kept in the trash, newest first.
    package func actions() throws -> [ForeignActionRecord] {
        try mapped { try trash.actions() }
    }
}

extension ForeignSection {
    func preview(_ selection: ForeignSelection, now: Int64) throws -> ForeignActionPreview {
        /// The selection's terms for a chunk of so many values, the chunks, and the words.
        let clauses: (Int) -> [String]
        var chunks: [[SQLiteValue]]
        let summary: String
        func list(_ column: String, _ count: Int) -> [String] {
            ["\(column) IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"]
        }
        func chunked(_ values: [SQLiteValue]) -> [[SQLiteValue]] {
            stride(from: 0, to: values.count, by: 500).map { Array(values[$0..<min($0 + 500, values.count)]) }
        }
        switch selection {
        case .expired, .filter:
            let filter = if case .filter(let given) = selection { given } else { EntryFilter([.expired]) }
            let translated = try ForeignFilterSQL(table: table, now: now).clauses(filter)
            (clauses, chunks) = ({ _ in translated.sql }, [translated.values])
            summary = selection == .expired ? "sweep expired" : "delete \(filter.description)"
        case .keys(let keys):
            guard !keys.isEmpty else { throw ForeignCacheError("no keys given") }
            // A key as listings print it: text, bytes spelled with `\xNN` escapes, or `pickle:` + hex.
            let pickled = table.keyIsPickled.map { "CASE WHEN \($0) THEN 'pickle:' || lower(hex(\(table.key))) END" }
            // Each chunk holds every key two or three times over, one list per spelling.
            clauses = { values in
                let count = values / (pickled == nil ? 2 : 3)
                return [
                    "(" + (list("CAST(\(table.key) AS TEXT)", count) + list("CAST(\(table.key) AS BLOB)", count)
                        + (pickled.map { list($0, count) } ?? [])).joined(separator: " OR ") + ")"
                ]
            }
            chunks = chunked(keys.map { .text($0) }).map { texts in
                let blobs = texts.map { value -> SQLiteValue in
                    guard case .text(let key) = value else { return value }
                    return .blob(PrintableKey.bytes(key) ?? Data(key.utf8))
                }
                return texts + blobs + (pickled == nil ? [] : texts)
            }
            summary = keys.count == 1 ? "delete key \(keys[0])" : "delete \(keys.count) keys"
        case .rows(let rows):
            guard !rows.isEmpty else { throw ForeignCacheError("no entries marked") }
            (clauses, chunks) = ({ list(table.rowID, $0) }, chunked(rows.map { .integer($0) }))
            summary = "delete \(rows.count) marked"
        }
        let limit = ForeignCache.maximumTargets
        var targets: [ForeignTarget] = []
        var bytes: Int64 = 0
        // Keys and marks come in chunks (SQLite binds at most 32,766 values per statement).
        for chunk in chunks {
            let sql = """
                SELECT \(table.rowID), \(table.key), \(table.size) FROM \(table.name)
                WHERE \(([scope.sql] + clauses(chunk.count)).joined(separator: " AND ")) ORDER BY \(table.rowID) LIMIT ?
                """
            try file.read { connection in
                try connection.withDynamicStatement(sql) { statement in
                    statement.bind(values: scope.values + chunk + [.integer(Int64(limit + 1 - targets.count))])
                    while try statement.step() {
                        targets.append(ForeignTarget(row: statement.int64(0), key: statement.value(1)))
                        bytes &+= Self.saturated(statement.value(2))
                    }
                }
            }
        }
        guard targets.count <= limit else {
            throw ForeignCacheError("the selection matches more than \(limit) entries; narrow it")
        }
        return ForeignActionPreview(
            namespace: namespace, summary: summary, entries: targets.count, bytes: bytes,
            dependents: try countDependents(of: targets), targets: targets)
    }

    /// Rows of dependent tables pointing at `targets`' keys.
    private func countDependents(of targets: [ForeignTarget]) throws -> Int {
        guard !table.dependents.isEmpty else { return 0 }
        return try file.read { connection in
            var count = 0
            for dependent in table.dependents {
                try connection.withDynamicStatement(
                    "SELECT count(*) FROM \(dependent.table) WHERE \(dependent.column) = ?"
                ) { statement in
                    for target in targets {
                        statement.reset()
                        statement.bind(values: [target.key])
                        if try statement.step() { count += statement.int(0) }
                    }
                }
            }
            return count
        }
    }

    func remove(
        _ preview: ForeignActionPreview, into trash: ForeignTrash, now: Int64, progress: (Int, Int) -> Bool
    ) throws -> ForeignActionResult {
        let copy = "INSERT INTO \(ForeignTrash.schema).\(table.name) SELECT *, ? FROM main.\(table.name) WHERE \(table.rowID) = ? AND \(table.key) IS ?"
        let delete = "DELETE FROM main.\(table.name) WHERE \(table.rowID) = ? AND \(table.key) IS ?"
        let side = table.sideFile.map { "SELECT \($0) FROM main.\(table.name) WHERE \(table.rowID) = ?" }
        return try file.withWriter { connection in
            try trash.attach(connection)
            defer { ForeignTrash.detach(connection) }
            let action = try connection.writeTransaction {
                try ForeignTrash.prepareTable(table.name, on: connection)
                for dependent in table.dependents { try ForeignTrash.prepareTable(dependent.table, on: connection) }
                return try insertAction(preview, now: now, on: connection)
            }
            var result = ForeignActionResult(
                actionID: action, removed: 0, dependentsRemoved: 0, skipped: 0, sideFilesMoved: 0)
            var moved: [String] = []
            for batch in stride(from: 0, to: preview.targets.count, by: ForeignCache.batchSize) {
                let targets = preview.targets[batch..<min(batch + ForeignCache.batchSize, preview.targets.count)]
                var sideFiles: [String] = []
                try connection.writeTransaction {
                    for target in targets {
                        let path = try side.flatMap { sql in
                            try connection.withDynamicStatement(sql) { statement in
                                statement.bind(values: [.integer(target.row)])
                                return try statement.firstRow { $0.isNull(0) ? nil : $0.text(0) } ?? nil
                            }
                        }
                        let copied = try run(copy, [.integer(action), .integer(target.row), target.key], on: connection)
                        guard copied == 1 else {
                            result.skipped += 1
                            continue
                        }
                        result.removed += try run(delete, [.integer(target.row), target.key], on: connection)
                        if let path { sideFiles.append(path) }
                        for dependent in table.dependents {
                            let trashTable = "\(ForeignTrash.schema).\(dependent.table)"
                            let main = "main.\(dependent.table) WHERE \(dependent.column) = ?"
                            _ = try run("INSERT INTO \(trashTable) SELECT *, ? FROM \(main)", [.integer(action), target.key], on: connection)
                            result.dependentsRemoved += try run("DELETE FROM \(main)", [target.key], on: connection)
                        }
                    }
                }
                // After the rows are gone, as the library does: a value file without its row
                // is garbage to it, a row without its file a miss.
                for path in sideFiles where try trash.moveAway(path, of: file, action: action) {
                    moved.append(path)
                }
                guard progress(batch + targets.count, preview.targets.count) else { break }
            }
            result.sideFilesMoved = moved.count
            try connection.writeTransaction {
                _ = try run(
                    "UPDATE \(ForeignTrash.schema).cachedeck_actions SET entries = ?, side_files = ? WHERE id = ?",
                    [.integer(Int64(result.removed)), .text(moved.joined(separator: "\n")), .integer(action)],
                    on: connection)
            }
            return result
        }
    }

    private func insertAction(_ preview: ForeignActionPreview, now: Int64, on connection: SQLiteConnection) throws
        -> Int64
    {
        _ = try run(
            """
            INSERT INTO \(ForeignTrash.schema).cachedeck_actions (at, namespace, summary, entries, bytes, who, target, origin)
            VALUES (?, ?, ?, 0, ?, ?, ?, ?)
            """,
            [
                .integer(now), .text(namespace), .text(preview.summary), .integer(preview.bytes), .text(preview.who),
                preview.target.map { .text($0) } ?? .null, try origin(on: connection).map { .text($0) } ?? .null,
            ], on: connection)
        return connection.lastInsertedRowID
    }

    func restore(action: Int64, from trash: ForeignTrash, now: Int64) throws -> Int {
        try file.withWriter { connection in
            try trash.attach(connection)
            defer { ForeignTrash.detach(connection) }
            let (sideFiles, origin) = try connection.withDynamicStatement(
                "SELECT side_files, origin FROM \(ForeignTrash.schema).cachedeck_actions WHERE id = ?"
            ) { statement in
                statement.bind(values: [.integer(action)])
                return try statement.firstRow { ($0.text(0), $0.isNull(1) ? nil : $0.text(1)) } ?? ("", nil)
            }
            if let origin, try origin != self.origin(on: connection) {
                throw ForeignCacheError(
                    "action #\(action) was taken on an earlier \(file.path) (the file or its table was made anew since): nothing restored")
            }
            for path in sideFiles.split(separator: "\n") { try trash.moveBack(String(path), of: file, action: action) }
            return try connection.writeTransaction {
                var restored = 0
                for (index, name) in ([table.name] + table.dependents.map(\.table)).enumerated() {
                    let columns = try self.columns(of: name, on: connection)
                    let inserted = try run(
                        """
                        INSERT OR IGNORE INTO main.\(name) (\(columns)) SELECT \(columns)
                        FROM \(ForeignTrash.schema).\(name) WHERE cachedeck_action = ?
                        """, [.integer(action)], on: connection)
                    if index == 0 { restored = inserted }
                    _ = try run(
                        "DELETE FROM \(ForeignTrash.schema).\(name) WHERE cachedeck_action = ?", [.integer(action)],
                        on: connection)
                }
                _ = try run(
                    "UPDATE \(ForeignTrash.schema).cachedeck_actions SET undone_at = ? WHERE id = ?",
                    [.integer(now), .integer(action)], on: connection)
                return restored
            }
        }
    }

    /// Which file and table the rows are in: the file's ``ForeignFile/identity`` and the
    /// table's root page, which a table dropped and made again may not get back.
    private func origin(on connection: SQLiteConnection) throws -> String? {
        guard let identity = file.identity else { return nil }
        let root = try connection.withDynamicStatement(
            "SELECT rootpage FROM main.sqlite_master WHERE type = 'table' AND name = ?"
        ) { statement in
            statement.bind(values: [.text(table.plainName)])
            return try statement.firstRow { $0.int64(0) }
        }
        return root.map { "\(identity):\($0)" }
    }

    /// `table`'s columns in the cache, quoted, as a list.
    private func columns(of table: String, on connection: SQLiteConnection) throws -> String {
        let plain = table.hasPrefix("\"") ? ForeignTable(name: table, key: "", value: "", size: "").plainName : table
        return try connection.withDynamicStatement("SELECT name FROM main.pragma_table_info(?)") { statement in
            statement.bind(values: [.text(plain)])
            return try statement.rows { ForeignTable.quoted($0.text(0)) }.joined(separator: ", ")
        }
    }

    private func run(_ sql: String, _ values: [SQLiteValue], on connection: SQLiteConnection) throws -> Int {
        try connection.withDynamicStatement(sql) { statement in
            statement.bind(values: values)
            try statement.step()
            return connection.changes
        }
    }
}
