import CSQLite
import Foundation

/// An error reported by SQLite: its (extended) result code, message and, where known, the
/// statement that failed (for logs).
package struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`).
    let extendedCode: Int32
    /// The message SQLite gave, or the generic text for the code.
    package let message: String
    /// The SQL of the statement that failed, when the error came from one.
    var statement: String?

    /// The primary result code (the low byte of the extended code).
    var code: Int32 { extendedCode & 0xFF }

    init(code: Int32, message: String? = nil) {
        self.extendedCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
    }

    init(code: Int32, connection: OpaquePointer?, statement: String? = nil) {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        self.init(code: code, message: message)
        self.statement = statement
    }

    /// The message, followed by the statement when known.
    var messageWithStatement: String {
        guard let statement else { return message }
        let oneLine = statement.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return "\(message) (in: \(oneLine.joined(separator: " ")))"
    }

    package var description: String { "SQLite error \(extendedCode): \(messageWithStatement)" }

    package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    package var isNotADatabase: Bool { code == SQLITE_NOTADB }
    package var isCorrupt: Bool { code == SQLITE_CORRUPT }
    var isDiskFull: Bool { code == SQLITE_FULL }
    package var isReadOnly: Bool { code == SQLITE_READONLY }
    /// How a read-only connection fails when it cannot use the WAL index (`-shm`).
    package var isWALIndexUnavailable: Bool { code == SQLITE_READONLY || code == SQLITE_CANTOPEN }
    /// How `sum()` fails on integers whose total leaves `Int64` (a tampered file).
    var isIntegerOverflow: Bool { code == SQLITE_ERROR && message == "integer overflow" }
    package var isCannotOpen: Bool { code == SQLITE_CANTOPEN || code == SQLITE_PERM || code == SQLITE_AUTH }
}
