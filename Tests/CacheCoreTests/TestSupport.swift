import Foundation

@testable import CacheCore

/// A fresh temporary folder per test, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "cachedeck-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String = "cache.sqlite") -> String { path + "/" + name }
}

/// A store on a temporary file with a manual clock.
struct TestStore {
    let folder = TemporaryFolder()
    let clock = ManualClock()
    let store: CacheStore
    var path: String { folder.file() }

    init(configure: (inout StoreOptions) -> Void = { _ in }) throws {
        var options = StoreOptions(clock: clock)
        configure(&options)
        store = try CacheStore(path: folder.file(), options: options)
    }

    /// Opens a second store on the same file (as another process would).
    func reopen(configure: (inout StoreOptions) -> Void = { _ in }) throws -> CacheStore {
        var options = StoreOptions(clock: clock)
        configure(&options)
        return try CacheStore(path: folder.file(), options: options)
    }

    /// Runs `sql` on a separate raw connection and returns the first column of the first row.
    func scalar(_ sql: String) throws -> Int64? {
        try rawScalar(path: path, sql)
    }
}

/// The first column of the first row of `sql` on a fresh raw connection to `path`.
func rawScalar(path: String, _ sql: String) throws -> Int64? {
    let connection = try SQLiteConnection(path: path, readOnly: false, create: false, busyTimeout: .seconds(5))
    return try connection.withDynamicStatement(sql) { try $0.firstRow { $0.optionalInt64(0) } ?? nil }
}

/// Runs SQL statements on a fresh raw connection to `path`.
func rawExecute(path: String, _ sql: String) throws {
    let connection = try SQLiteConnection(path: path, readOnly: false, create: true, busyTimeout: .seconds(5))
    try connection.execute(sql)
}

/// A file of an older format `version` at `path` (the migrations up to it), then `sql`.
func olderFormatFile(at path: String, version: Int, _ sql: String) throws {
    try rawExecute(path: path, Schema.migrations.prefix(version).joined(separator: "\n"))
    try rawExecute(
        path: path, "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(version);\n" + sql)
}

/// The bytes of the file at `path` (to prove a refused file was left untouched).
func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Iteration counts of the reliability tests: small by default (CI), the full counts the
/// issue asks for with `CACHEDECK_FULL_COUNTS=1`.
enum TestScale {
    static let isFull = ProcessInfo.processInfo.environment["CACHEDECK_FULL_COUNTS"] == "1"

    static func count(ci: Int, full: Int) -> Int { isFull ? full : ci }
}
