import CacheCore
import Foundation

/// One SQLite file of another library, opened per call: read-only and without creating
/// anything beside it, or, for an action, for one short write transaction.
package struct ForeignFile: Sendable, Hashable {
    /// The database file.
    package let path: String
    /// How long a call waits for the owning app's locks.
    static let busyTimeout = Duration.seconds(5)

    /// The folder side files are relative to.
    var folder: String { (path as NSString).deletingLastPathComponent }

    /// Runs `body` in one read transaction on a fresh read-only connection, closed before this
    /// returns. A WAL file without a `-wal` beside it is read as immutable (SQLite would
    /// otherwise create `-wal` and `-shm` even for a read-only connection); with a `-wal`, the
    /// owning app is attached and its `-shm` is used as it is.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let immutable = isWAL && !FileManager.default.fileExists(atPath: path + "-wal")
        let connection = try SQLiteConnection(
            path: path, readOnly: true, create: false, busyTimeout: Self.busyTimeout, immutable: immutable)
        return try connection.readTransaction { try body(connection) }
    }

    /// Runs `body` with a fresh read-write connection (closed after), for an action's short
    /// write transactions; waits up to ``busyTimeout`` for the owning app's locks.
    func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try SQLiteConnection(
            path: path, readOnly: false, create: false, busyTimeout: Self.busyTimeout)
        guard !connection.isReadOnly else { throw ForeignCacheError("cannot write \(path)") }
        return try body(connection)
    }

    /// Which file this is now, as the file system names it (device and inode): a cache
    /// deleted and made anew at the same path is another file (unless the file system hands
    /// the new one the old inode, which ext4 may do for a file deleted first).
    var identity: String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }

    /// Whether the header says write-ahead logging (bytes 18 and 19 are 2).
    var isWAL: Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 20)) ?? Data()
        return header.count == 20 && header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// Whether the file starts like a SQLite database.
    var isSQLite: Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// The sizes of the file and its `-wal`.
    var sizes: (file: Int64, wal: Int64) {
        (Self.size(of: path) ?? 0, Self.size(of: path + "-wal") ?? 0)
    }

    /// A regular file's size (`nil`: missing, or not a regular file).
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// `relative` under the cache folder, when it names a file there: no absolute path, no
    /// `..`, nothing but plain names (a file's bytes name it; they may be hostile).
    func sideFilePath(_ relative: String) -> String? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !parts.isEmpty, parts.count <= 4,
            parts.allSatisfy({ part in
                !part.isEmpty && part != "." && part != ".." && part.count <= 255
                    && part.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0 != "\\" }
            })
        else { return nil }
        return (folder as NSString).appendingPathComponent(relative)
    }
}
