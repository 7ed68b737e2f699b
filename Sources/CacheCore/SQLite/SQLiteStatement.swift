import CSQLite
import Foundation

/// A value that can be bound to a statement parameter.
package protocol SQLiteBindable: Sendable {
    func bind(to statement: SQLiteStatement, at index: Int32)
}

extension Int64: SQLiteBindable {
    package func bind(to statement: SQLiteStatement, at index: Int32) {
        sqlite3_bind_int64(statement.handle, index, self)
    }
}

extension Int: SQLiteBindable {
    package func bind(to statement: SQLiteStatement, at index: Int32) {
        sqlite3_bind_int64(statement.handle, index, Int64(self))
    }
}

extension String: SQLiteBindable {
    package func bind(to statement: SQLiteStatement, at index: Int32) {
        var copy = self
        copy.withUTF8 { bytes in
            _ = sqlite3_bind_text(
                statement.handle, index,
                bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                Int32(bytes.count), sqliteTransient)
        }
    }
}

extension Data: SQLiteBindable {
    package func bind(to statement: SQLiteStatement, at index: Int32) {
        withUnsafeBytes { bytes in
            // A zero-length blob still needs a non-NULL pointer, or SQLite stores NULL.
            let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
            _ = sqlite3_bind_blob(statement.handle, index, base, Int32(bytes.count), sqliteTransient)
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    package func bind(to statement: SQLiteStatement, at index: Int32) {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement.handle, index)
        }
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement owned by one connection and reused across calls.
///
/// Use it through ``SQLiteConnection/withStatement(_:_:)``, which resets it afterwards so
/// that no read transaction outlives the call.
package final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds the values to parameters 1, 2, … in order.
    package func bind<each V: SQLiteBindable>(_ values: repeat each V) {
        bind(from: 1, repeat each values)
    }

    /// Binds the values to parameters `first`, `first + 1`, … in order (one row of a
    /// multi-row statement).
    func bind<each V: SQLiteBindable>(from first: Int32, _ values: repeat each V) {
        var index = first
        for value in repeat each values {
            value.bind(to: self, at: index)
            index += 1
        }
    }

    /// Advances to the next row; `true` when a row is available, `false` when done.
    @discardableResult
    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, statement: sqlite3_sql(handle).map { String(cString: $0) })
        }
    }

    /// Runs the statement to completion and returns the number of rows it changed.
    @discardableResult
    func run() throws -> Int {
        while try step() {}
        return connection.changes
    }

    /// Calls `row` for each result row and collects what it returns.
    package func rows<T>(_ row: (SQLiteStatement) throws -> T) throws -> [T] {
        var result: [T] = []
        while try step() { result.append(try row(self)) }
        return result
    }

    /// The first result row mapped by `row`, or `nil` when there is none.
    package func firstRow<T>(_ row: (SQLiteStatement) throws -> T) throws -> T? {
        try step() ? try row(self) : nil
    }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns (0-based)

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    package func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

/// A statement's rows read one at a time, each mapped by `read` (which the SQL that selected
/// the columns supplies, so callers use names, not column numbers).
struct RowCursor<Row> {
    let statement: SQLiteStatement
    let read: (SQLiteStatement) -> Row

    /// The next row, or `nil` after the last.
    func next() throws -> Row? {
        try statement.step() ? read(statement) : nil
    }
}
