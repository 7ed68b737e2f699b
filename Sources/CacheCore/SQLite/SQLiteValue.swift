import CSQLite
import Foundation

/// One column value as SQLite stores it, for SQL over tables CacheCore did not create (the
/// ForeignCaches target reads other libraries' caches with it).
package enum SQLiteValue: Sendable, Hashable, SQLiteBindable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    package func bind(to statement: SQLiteStatement, at index: Int32) {
        switch self {
        case .null: sqlite3_bind_null(statement.handle, index)
        case .integer(let value): value.bind(to: statement, at: index)
        case .real(let value): sqlite3_bind_double(statement.handle, index, value)
        case .text(let value): value.bind(to: statement, at: index)
        case .blob(let value): value.bind(to: statement, at: index)
        }
    }
}

extension SQLiteStatement {
    /// Binds `values` to parameters 1, 2, … in order.
    package func bind(values: [SQLiteValue]) {
        for (offset, value) in values.enumerated() { value.bind(to: self, at: Int32(offset + 1)) }
    }

    /// Column `column` (0-based) as it is stored.
    package func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: .text(text(column))
        case SQLITE_BLOB: .blob(blob(column))
        default: .null
        }
    }

    /// How many columns each row has.
    package var columnCount: Int32 { sqlite3_column_count(handle) }
}
