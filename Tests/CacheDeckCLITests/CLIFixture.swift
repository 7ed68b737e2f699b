import Foundation

@testable import CacheCore

/// A small cache file in a temporary folder, and `cachedeck` runs on it.
///
/// - `colors`: 3 entries that never expire; 9 hits and 1 miss in its telemetry.
/// - `tiles`: 10 binary values tagged `zoom:1` (`z1/0` … `z1/9`, 100 to 1,000 bytes) and a
///   JSON value under a key with an escape sequence (``hostileKey``).
/// - `sessions`: 3 entries that expired an hour ago and 2 that expire in an hour.
final class CLIFixture {
    static let hostileKey = "evil\u{1B}[31mred"

    let folder: TemporaryFolder
    private let outputs: TemporaryFolder
    /// The cache file.
    let path: String

    init() throws {
        folder = try TemporaryFolder()
        outputs = try TemporaryFolder()
        path = folder.file("cache.sqlite")
        var options = StoreOptions()
        options.statistics.telemetryInterval = .seconds(3600)
        options.statistics.metrics = .off
        options.statistics.programName = "fixture"
        let store = try CacheStore(path: path, options: options)
        let colors = try store.cache(
            "colors", key: Int.self, value: String.self, policy: NamespacePolicy(expiration: .never))
        for (id, name) in [(1, "red"), (2, "green"), (3, "blue")] { try colors.set(name, for: id) }
        for _ in 0..<9 { _ = try colors.get(1) }
        _ = try colors.get(99)
        let tiles = try store.dataCache("tiles", key: String.self)
        for index in 0..<10 {
            try tiles.set(Data(repeating: UInt8(index), count: 100 * (index + 1)), for: "z1/\(index)", tags: ["zoom:1"])
        }
        try tiles.set(Data(#"{"b":[1,2],"a":"x"}"#.utf8), for: Self.hostileKey)
        let sessions = try store.cache("sessions", key: String.self, value: [String: Int].self)
        for index in 0..<3 {
            try sessions.set(["user": index], for: "old\(index)", expiration: .at(Date(timeIntervalSinceNow: -3600)))
        }
        for index in 0..<2 {
            try sessions.set(["user": index], for: "new\(index)", expiration: .after(.seconds(3600)))
        }
        try store.flushTelemetry()
        try store.close()
        // Everything into the file now, so no later checkpoint (by a connection the closed
        // store releases afterwards) changes its bytes during a test.
        try Self.execute("PRAGMA wal_checkpoint(TRUNCATE)", on: path)
    }

    /// Runs `cachedeck` with `arguments` to the end.
    func run(_ arguments: String...) throws -> CLIResult { try run(arguments) }

    func run(_ arguments: [String], unprivileged: Bool = false) throws -> CLIResult {
        try CLIProcess(arguments, folder: outputs, unprivileged: unprivileged).wait()
    }

    /// Runs the test helper with `arguments` to the end.
    func runHelper(_ arguments: [String], unprivileged: Bool = false) throws -> CLIResult {
        try CLIProcess(arguments, folder: outputs, executable: HelperBinary.path(), unprivileged: unprivileged).wait()
    }

    /// Starts `cachedeck` with `arguments`.
    func start(_ arguments: String...) throws -> CLIProcess { try CLIProcess(arguments, folder: outputs) }

    /// The cache file's bytes.
    var bytes: Data? { FileManager.default.contents(atPath: path) }

    /// A read-only look at the file through CacheCore.
    func inspector() throws -> Inspector { try CacheStore(path: path, options: .inspection()).inspector }

    /// Entries stored in `namespace`, expired ones included.
    func count(_ namespace: String) throws -> Int { try inspector().namespace(namespace).entryCount }

    /// Runs SQL statements on a raw connection to `file` (created if missing).
    static func execute(_ sql: String, on file: String) throws {
        let connection = try SQLiteConnection(path: file, readOnly: false, create: true, busyTimeout: .seconds(5))
        try connection.execute(sql)
    }
}
