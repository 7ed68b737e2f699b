import CacheCore

/// How one cache table of a foreign format maps to entries: SQL expressions over its own
/// columns (fixed text from the format's file, identifiers quoted), never values.
struct ForeignTable: Sendable {
    /// The table, as a quoted identifier.
    var name: String
    /// A stable row id.
    var rowID = "rowid"
    /// The key as stored.
    var key: String
    /// 1 when the key is stored pickled (python-diskcache's `raw = 0`); `nil`: never.
    var keyIsPickled: String?
    /// The value stored inline (NULL when it lives in a side file).
    var value: String
    /// The entry's bytes as SQL can count them (key, inline value, and side files the table
    /// records the size of).
    var size: String
    /// A side file's path relative to the cache folder, or NULL.
    var sideFile: String?
    /// Whether ``size`` already counts the side file (else its size is read from the disk).
    var sizeCountsSideFile = true
    /// The kind the format records for the value (`'pickle'`), or NULL to sniff it.
    var valueKind: String?
    /// When the entry was written.
    var created: TimeColumn?
    /// When it expires (NULL: never).
    var expires: TimeColumn?
    /// When it was last read.
    var accessed: TimeColumn?
    /// How often it was read.
    var hits: String?
    /// A tag.
    var tag: String?
    /// A version the format keeps per entry.
    var version: String?
    /// Tables whose rows point at this one's keys and go with them (requests-cache's
    /// `redirects`, whose `value` is a response's key).
    var dependents: [ForeignDependent] = []
    /// Whether CacheDeck may remove rows (not where the owner keeps rows in several tables
    /// it alone keeps consistent, as URLCache does).
    var allowsActions = true

    /// The table's name as `sqlite_master` has it.
    var plainName: String {
        guard name.hasPrefix("\"") else { return name }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// The bytes `columns` hold together (0 for NULL). SQLite's `length` counts a text's
    /// characters, not its UTF-8 bytes; a blob's length is read without loading the blob.
    static func bytes(_ columns: String...) -> String {
        columns.map { "iif(typeof(\($0)) = 'text', length(CAST(\($0) AS BLOB)), ifnull(length(\($0)), 0))" }
            .joined(separator: " + ")
    }

    /// `identifier` quoted for SQL (for table names read from `sqlite_master`).
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A time column and the unit it is stored in.
struct TimeColumn: Sendable {
    /// How a format stores times.
    enum Unit: Sendable {
        /// Seconds since 1970 (integer or real).
        case seconds
        /// UTC text, `YYYY-MM-DD HH:MM:SS[.fff]` (SQLite's `CURRENT_TIMESTAMP`, Rails, Django, GRDB).
        case utcText
    }

    /// The column as stored.
    var column: String
    var unit: Unit

    /// Milliseconds since 1970 (NULL when absent or unreadable, text in a number column
    /// included; saturated when out of range).
    var milliseconds: String {
        switch unit {
        case .seconds:
            "CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN CAST(round(\(column) * 1000) AS INTEGER) END"
        case .utcText: "CAST(round((julianday(\(column)) - 2440587.5) * 86400000) AS INTEGER)"
        }
    }

    /// `milliseconds` since 1970 in the column's own unit, so comparisons can use its index.
    func stored(_ milliseconds: Int64) -> SQLiteValue {
        switch unit {
        case .seconds: .real(Double(milliseconds) / 1000)
        case .utcText: .text(UTCText.text(milliseconds))
        }
    }
}

/// Rows of another table that point at an entry's key: `column` holds it.
struct ForeignDependent: Sendable {
    var table: String
    var column: String
}

/// A fixed condition that picks one namespace's rows out of a table.
struct ForeignCondition: Sendable {
    var sql: String
    var values: [SQLiteValue]
}
