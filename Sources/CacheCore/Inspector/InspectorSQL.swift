import Foundation

/// A value bound to a numbered parameter of SQL the inspector assembles at run time.
enum SQLValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
    /// Raw bytes compared as TEXT (a key that may not be valid UTF-8, a prefix's upper
    /// bound): bound as a blob and cast back to TEXT in the SQL, so no byte is altered.
    case textBytes(Data)
}

/// SQL assembled from fragments, with its parameters numbered in order (`?1`, `?2`, …) so a
/// fragment can be repeated without binding its values twice.
struct SQLBuilder {
    private(set) var values: [SQLValue] = []

    /// The placeholder of a new parameter holding `value`.
    mutating func parameter(_ value: SQLValue) -> String {
        values.append(value)
        let placeholder = "?\(values.count)"
        if case .textBytes = value { return "CAST(\(placeholder) AS TEXT)" }
        return placeholder
    }

    mutating func parameter(_ value: Int64) -> String { parameter(.integer(value)) }

    mutating func parameter(_ value: Int) -> String { parameter(.integer(Int64(value))) }
}

extension SQLiteStatement {
    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let integer): bind(from: index, integer)
            case .text(let text): bind(from: index, text)
            case .textBytes(let bytes): bind(from: index, bytes)
            }
        }
    }
}

extension SQLiteConnection {
    /// Runs `sql` with `values` bound and maps every row.
    func rows<T>(_ sql: String, _ values: [SQLValue], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        try withDynamicStatement(sql) { statement in
            statement.bind(values)
            return try statement.rows(row)
        }
    }
}
