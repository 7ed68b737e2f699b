import CacheCore
import Foundation

/// One namespace of a foreign cache: a table (or the rows of one that a condition picks) in
/// one file. Every read is one short read transaction.
struct ForeignSection: Sendable {
    var namespace: String
    var file: ForeignFile
    var table: ForeignTable
    var condition: ForeignCondition?

    /// The condition as a `WHERE` term and its values (`1` when the whole table).
    var scope: (sql: String, values: [SQLiteValue]) {
        condition.map { ("(\($0.sql))", $0.values) } ?? ("1", [])
    }

    /// Entries and expired entries at `now` (each through an index where the table has one),
    /// and, when `countingBytes`, the bytes (a scan of every row), in one read transaction.
    func summary(now: Int64, countingBytes: Bool) throws -> ForeignNamespace {
        try file.read { connection in
            func scalar(_ sql: String, _ values: [SQLiteValue]) throws -> SQLiteValue {
                try connection.withDynamicStatement(sql) { statement in
                    statement.bind(values: values)
                    return try statement.firstRow { $0.value(0) } ?? .null
                }
            }
            let from = "FROM \(table.name) WHERE \(scope.sql)"
            let entries = try scalar("SELECT count(*) \(from)", scope.values)
            let expired = try table.expires.map { expires in
                try scalar("SELECT count(*) \(from) AND \(expires.column) <= ?", scope.values + [expires.stored(now)])
            }
            let bytes = countingBytes ? try scalar("SELECT total(\(table.size)) \(from)", scope.values) : nil
            return ForeignNamespace(
                name: namespace, entries: Int(Self.saturated(entries)), bytes: bytes.map(Self.saturated),
                expired: expired.map { Int(Self.saturated($0)) })
        }
    }

    /// One page in `query`'s order after its cursor.
    func page(_ query: ForeignQuery, now: Int64) throws -> ForeignPage {
        let order = try sortExpression(query.sort.field)
        let filter = try ForeignFilterSQL(table: table, now: now).clauses(query.filter)
        let direction = query.sort.descending ? "DESC" : "ASC"
        var conditions = [scope.sql] + filter.sql
        var values = scope.values + filter.values
        if let after = query.after {
            let keyset = Self.keyset(order, rowID: table.rowID, after: after, descending: query.sort.descending)
            conditions.append(keyset.sql)
            values += keyset.values
        }
        let sql = """
            SELECT \(columns), \(order) FROM \(table.name) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(order) \(direction), \(table.rowID) \(direction) LIMIT ?
            """
        values.append(.integer(Int64(query.limit)))
        let (rows, last) = try file.read { connection in
            try connection.withDynamicStatement(sql) { statement in
                statement.bind(values: values)
                var rows: [ForeignEntry] = []
                var last: SQLiteValue = .null
                while try statement.step() {
                    rows.append(entry(statement))
                    last = statement.value(Self.columnCount)
                }
                return (rows, last)
            }
        }
        let next = rows.count == query.limit ? rows.last.map { ForeignCursor(sortValue: last, row: $0.id.row) } : nil
        return ForeignPage(rows: rows, next: next, now: now)
    }

    /// The entry with row id `row`, its value rendered (hex-dumped if `hex`).
    func detail(row: Int64, hex: Bool) throws -> ForeignDetail? {
        let sql = """
            SELECT \(columns), \(table.value), \(table.sideFile ?? "NULL"), \(table.valueKind ?? "NULL"),
            \(table.version ?? "NULL") FROM \(table.name) WHERE \(scope.sql) AND \(table.rowID) = ?
            """
        let found = try file.read { connection in
            try connection.withDynamicStatement(sql) { statement in
                statement.bind(values: scope.values + [.integer(row)])
                guard try statement.step() else { return nil as (ForeignEntry, SQLiteValue, String?, String?, String?)? }
                let base = Self.columnCount
                let side = statement.isNull(base + 1) ? nil : statement.text(base + 1)
                let hint = statement.isNull(base + 2) ? nil : statement.text(base + 2)
                let version = statement.isNull(base + 3) ? nil : Self.display(statement.value(base + 3))
                return (entry(statement), statement.value(base), side, hint, version)
            }
        }
        guard let (entry, inline, side, hint, version) = found else { return nil }
        var bytes: [UInt8]
        var total: Int64?
        if let side {
            guard let path = file.sideFilePath(side), let size = ForeignFile.size(of: path),
                let handle = FileHandle(forReadingAtPath: path)
            else {
                return ForeignDetail(
                    entry: entry, valueBytes: nil, kind: .missing,
                    value: .hexDump([], isTruncated: false), sideFile: side, version: version)
            }
            defer { try? handle.close() }
            bytes = Array((try? handle.read(upToCount: ValueRenderer.textLimit)) ?? Data())
            total = size
        } else {
            bytes = Self.bytes(inline)
            total = Int64(bytes.count)
        }
        let kind = ValueKind.sniff(bytes, hint: hint)
        return ForeignDetail(
            entry: entry, valueBytes: total,
            kind: kind, value: ValueRenderer.render(bytes, kind: kind, hex: hex, totalBytes: total ?? 0),
            sideFile: side, version: version)
    }

    /// Row ids and sizes of the rows `filter` matches, up to `limit` (for actions' previews).
    func matching(_ filter: EntryFilter, keys: [String]? = nil, now: Int64, limit: Int) throws -> [(Int64, Int64)] {
        let clauses = try ForeignFilterSQL(table: table, now: now).clauses(filter)
        let sql = """
            SELECT \(table.rowID), \(table.size) FROM \(table.name)
            WHERE \((([scope.sql] + clauses.sql)).joined(separator: " AND ")) ORDER BY \(table.rowID) LIMIT ?
            """
        return try file.read { connection in
            try connection.withDynamicStatement(sql) { statement in
                statement.bind(values: scope.values + clauses.values + [.integer(Int64(limit))])
                return try statement.rows { ($0.int64(0), $0.int64(1)) }
            }
        }
    }

    /// The row whose key is `key` as text (or as the bytes its `\xNN` escapes spell, or a
    /// pickled key's as `pickle:` and their hex).
    func row(forKey key: String) throws -> Int64? {
        let sql = """
            SELECT \(table.rowID) FROM \(table.name)
            WHERE \(scope.sql) AND (CAST(\(table.key) AS TEXT) = ? OR CAST(\(table.key) AS BLOB) = ?
                OR (\(table.keyIsPickled ?? "0") AND CAST(\(table.key) AS BLOB) = ?)) LIMIT 1
            """
        let bytes: SQLiteValue = PrintableKey.bytes(key).map { .blob($0) } ?? .null
        let pickled: SQLiteValue = Self.pickledKey(key).map { .blob(Data($0)) } ?? .null
        return try file.read { connection in
            try connection.withDynamicStatement(sql) { statement in
                statement.bind(values: scope.values + [.text(key), bytes, pickled])
                return try statement.firstRow { $0.int64(0) }
            }
        }
    }

    // MARK: Columns

    private static let columnCount: Int32 = 10

    /// The listing's columns, in the order ``entry(_:)`` reads them.
    private var columns: String {
        [
            table.rowID, table.key, table.keyIsPickled ?? "0", table.size, table.created?.milliseconds ?? "NULL",
            table.expires?.milliseconds ?? "NULL", table.accessed?.milliseconds ?? "NULL", table.hits ?? "NULL",
            table.tag ?? "NULL", table.sideFile ?? "NULL",
        ].joined(separator: ", ")
    }

    private func entry(_ statement: SQLiteStatement) -> ForeignEntry {
        let key = statement.value(1)
        let pickled = statement.int64(2) != 0
        var size = Self.saturated(statement.value(3))
        // A side file the table does not count (URLCache bodies): its size on disk, if any.
        if !table.sizeCountsSideFile, !statement.isNull(9),
            let side = file.sideFilePath(statement.text(9)), let bytes = ForeignFile.size(of: side)
        {
            size = size.addingReportingOverflow(bytes).overflow ? .max : size + bytes
        }
        let keyBytes = Self.bytes(key)
        return ForeignEntry(
            id: ForeignEntryID(namespace: namespace, row: statement.int64(0)),
            key: pickled ? "pickle:" + Self.hex(keyBytes.prefix(512)) : Self.display(key),
            label: pickled ? PickleValue.reading(keyBytes) { PickleText.line($0, limit: 512) } : nil,
            size: size, createdAt: statement.optionalInt64(4),
            expiresAt: statement.optionalInt64(5), lastAccessAt: statement.optionalInt64(6),
            hits: statement.optionalInt64(7).map { Int(clamping: $0) },
            tag: statement.isNull(8) ? nil : Self.display(statement.value(8)))
    }

    /// The rows after `after` in `order`, then row id: NULLs sort first (SQLite's order), so
    /// a NULL cursor continues among the NULLs and a value one never returns to them. The
    /// plain column keeps its index usable.
    static func keyset(_ order: String, rowID: String, after: ForeignCursor, descending: Bool)
        -> (sql: String, values: [SQLiteValue])
    {
        let row = SQLiteValue.integer(after.row)
        switch (after.sortValue, descending) {
        case (.null, false): return ("((\(order) IS NULL AND \(rowID) > ?) OR \(order) IS NOT NULL)", [row])
        case (.null, true): return ("(\(order) IS NULL AND \(rowID) < ?)", [row])
        case (let value, false): return ("(\(order), \(rowID)) > (?, ?)", [value, row])
        case (let value, true): return ("((\(order), \(rowID)) < (?, ?) OR \(order) IS NULL)", [value, row])
        }
    }

    /// The order's expression: a plain column where one holds it (its index serves the
    /// order); expiry puts never-expiring entries last.
    private func sortExpression(_ field: EntrySortField) throws -> String {
        func unavailable(_ what: String) -> ForeignCacheError {
            ForeignCacheError("this cache records no \(what); sort by key or size")
        }
        switch field {
        case .key: return table.key
        case .size: return table.size
        case .created:
            guard let created = table.created else { throw unavailable("write times") }
            return created.column
        case .expires:
            guard let expires = table.expires else { throw unavailable("expiry") }
            return "ifnull(\(expires.column), x'ff')"
        case .lastAccess:
            guard let accessed = table.accessed else { throw unavailable("access times") }
            return accessed.column
        case .hits:
            guard let hits = table.hits else { throw unavailable("hits") }
            return "ifnull(\(hits), -1)"
        case .sortValue: throw unavailable("sort values")
        }
    }

    // MARK: Values

    /// A stored value's bytes (numbers as their text).
    static func bytes(_ value: SQLiteValue) -> [UInt8] {
        switch value {
        case .null: []
        case .integer(let number): Array("\(number)".utf8)
        case .real(let number): Array("\(number)".utf8)
        case .text(let text): Array(text.utf8)
        case .blob(let data): Array(data)
        }
    }

    /// A stored key or tag as readable text: UTF-8 as it is, other bytes escaped (``PrintableKey``).
    static func display(_ value: SQLiteValue) -> String {
        if case .blob(let data) = value { return PrintableKey.text(data) }
        return String(decoding: bytes(value), as: UTF8.self)
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of a key listed as `pickle:` and their hex; `nil` for any other text.
    static func pickledKey(_ key: String) -> [UInt8]? {
        guard key.hasPrefix("pickle:") else { return nil }
        let digits = Array(key.utf8.dropFirst(7))
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// A summed or stored size as bytes, saturated (a hostile file may claim anything).
    static func saturated(_ value: SQLiteValue) -> Int64 {
        switch value {
        case .integer(let number): max(0, number)
        case .real(let number): number.isFinite ? Int64(max(0, min(number, 9.2e18)).rounded()) : 0
        default: 0
        }
    }
}
