import CacheCore

/// The tables of a SQLite file and their columns, read from `sqlite_master`: formats are
/// recognised by what their tables hold, never by the file's name.
struct ForeignSchema: Sendable {
    /// Table name → lower-cased column name → declared type (upper-cased).
    var tables: [String: [String: String]]

    /// Whether `table` exists with at least `columns`.
    func has(_ table: String, _ columns: [String]) -> Bool {
        guard let found = tables[table] else { return false }
        return columns.allSatisfy { found[$0] != nil }
    }

    /// The tables that have at least `columns`, by name.
    func tables(with columns: [String]) -> [String] {
        tables.keys.filter { has($0, columns) }.sorted()
    }

    /// Reads the schema (bounded: a hostile file may hold any number of tables).
    static func read(_ file: ForeignFile) throws -> ForeignSchema {
        try file.read { connection in
            try connection.withDynamicStatement(
                """
                SELECT m.name, lower(p.name), upper(p.type) FROM sqlite_master AS m, pragma_table_info(m.name) AS p
                WHERE m.type = 'table' LIMIT 20000
                """
            ) { statement in
                var tables: [String: [String: String]] = [:]
                while try statement.step() {
                    tables[statement.text(0), default: [:]][statement.text(1)] = statement.text(2)
                }
                return ForeignSchema(tables: tables)
            }
        }
    }

    /// The unit a time column's declared type implies: numbers are seconds, anything else UTC text.
    func timeUnit(_ table: String, _ column: String) -> TimeColumn.Unit {
        let type = tables[table]?[column] ?? ""
        return type.contains("INT") || type.contains("REAL") || type.contains("NUM") || type.contains("DOUB")
            ? .seconds : .utcText
    }
}
