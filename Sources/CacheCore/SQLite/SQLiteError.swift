import CSQLite

/// An error reported by SQLite: its (extended) result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`).
    let extendedCode: Int32
    /// The message SQLite gave, or the generic text for the code.
    let message: String

    /// The primary result code (the low byte of the extended code).
    var code: Int32 { extendedCode & 0xFF }

    init(code: Int32, message: String? = nil) {
        self.extendedCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
    }

    init(code: Int32, connection: OpaquePointer?) {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        self.init(code: code, message: message)
    }

    var description: String { "SQLite error \(extendedCode): \(message)" }

    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    var isNotADatabase: Bool { code == SQLITE_NOTADB }
    var isCorrupt: Bool { code == SQLITE_CORRUPT }
    var isDiskFull: Bool { code == SQLITE_FULL }
    var isReadOnly: Bool { code == SQLITE_READONLY }
    /// How a read-only connection fails when it cannot use the WAL index (`-shm`).
    var isWALIndexUnavailable: Bool { code == SQLITE_READONLY || code == SQLITE_CANTOPEN }
    /// How `sum()` fails on integers whose total leaves `Int64` (a tampered file).
    var isIntegerOverflow: Bool { code == SQLITE_ERROR && message == "integer overflow" }
    var isCannotOpen: Bool { code == SQLITE_CANTOPEN || code == SQLITE_PERM || code == SQLITE_AUTH }
}
