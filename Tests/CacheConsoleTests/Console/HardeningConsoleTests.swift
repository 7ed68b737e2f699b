import CacheCore
import Foundation
import Testing
import CacheDeckTestSupport

@testable import CacheConsole
import TerminalUI

/// Issue 15 in the console, over a real file: typos in action commands, and numbers at the
/// limits of `Int64` in the rows it shows.
@Suite struct HardeningConsoleTests {
    private func source(_ sql: String? = nil) throws -> (StoreDataSource, TemporaryFolder) {
        let folder = TemporaryFolder()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        let store = try CacheStore(path: path)
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        for index in 0..<5 { try tiles.set("tile \(index)", for: "z\(index)", expiration: .after(.seconds(60))) }
        try store.close()
        if let sql { try Self.execute(sql, on: path) }
        return (try StoreDataSource.open(path: path, readOnly: false), folder)
    }

    /// Runs SQL on the file as another program would (the sqlite3 tool ships with the system library).
    private static func execute(_ sql: String, on path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try ProcessLauncher.run(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// `:compact` gives the free pages key removals left back, with progress, and says how much.
    @Test func compactGivesSpaceBackAndSaysHowMuch() throws {
        let (source, folder) = try source()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        let app = try CacheStore(path: path)
        let tiles = try app.cache("tiles", key: Int.self, value: String.self)
        try tiles.set((0..<2000).map { (key: $0, value: String(repeating: "t", count: 300)) })
        try tiles.invalidate(Array(0..<1900))
        let before = try app.size()
        try app.close()
        #expect(before.freeBytes > 0)
        var harness = ConsoleHarness(source: source, now: Int64(Date().timeIntervalSince1970 * 1000))
        harness.press(.character(":"))
        harness.type("compact")
        harness.press(.enter)
        #expect(harness.model.busy == nil && harness.model.overlay == nil)
        let screen = harness.screen()
        #expect(screen.contains(" Compacted: ") && screen.contains("on disk (gave back"), "\(screen)")
        let after = try CacheStore(path: path, options: .inspection()).size()
        #expect(after.freeBytes == 0 && after.diskBytes < before.diskBytes, "\(before) → \(after)")
    }

    @Test(arguments: ["clear nosuch", "sweep nosuch", "invalidate tag=t ns=nosuch"])
    func anActionOnAnUnknownNamespaceSaysSoAndAsksNothing(_ command: String) throws {
        let (source, folder) = try source()
        _ = folder
        var harness = ConsoleHarness(source: source, now: Int64(Date().timeIntervalSince1970 * 1000))
        harness.press(.character(":"))
        harness.type(command)
        harness.press(.enter)
        #expect(harness.texts(styled: .statusError) == ["No namespace named 'nosuch' (Tab completes the names)."])
        #expect(harness.model.overlay == nil && harness.model.busy == nil)
        #expect(try source.auditLog(limit: 10).isEmpty)
    }

    @Test(arguments: [Int64.max, Int64.min])
    func timesAtTheLimitsRenderWithoutTrapping(_ value: Int64) throws {
        let (source, folder) = try source(
            "UPDATE entries SET created_at = \(value), accessed_at = \(value), expires_at = \(value);"
                + "UPDATE namespaces SET total_bytes = \(value)")
        _ = folder
        var harness = ConsoleHarness(source: source, now: Int64(Date().timeIntervalSince1970 * 1000))
        harness.press(.character(":"))
        harness.type("ns tiles")
        harness.press(.enter)
        #expect(harness.screen().contains("z0"))
        harness.press(.character(":"))
        harness.type("timeline")
        harness.press(.enter)
        _ = harness.screen()
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func theHeaderSaysWhoseFileItIs() throws {
        let folder = TemporaryFolder()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        try CacheStore(path: path).close()
        #expect(chown(path, 65534, 65534) == 0)
        let source = try StoreDataSource.open(path: path, readOnly: true)
        let harness = ConsoleHarness(columns: 100, source: source, now: Int64(Date().timeIntervalSince1970 * 1000))
        let header = harness.screen().split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("cache.sqlite, owned by nobody (uid 65534)"))
    }

    @Test func aRunawayRegexFilterGivesUpAndTheConsoleCarriesOn() throws {
        let (source, folder) = try source(
            "UPDATE entries SET key = '\(String(repeating: "a", count: 60))!' WHERE key = 'z0'")
        _ = folder
        var harness = ConsoleHarness(
            columns: 120, source: source, now: Int64(Date().timeIntervalSince1970 * 1000))
        harness.press(.character(":"))
        harness.type("ns tiles")
        harness.press(.enter)
        let started = ContinuousClock.now
        harness.press(.character("/"))
        harness.type("regex:(a|a)+$")
        harness.press(.enter)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(harness.screen().contains("gave up after"))
        harness.press(.character(":"))
        harness.type("timeline")
        harness.press(.enter)
        #expect(harness.texts(styled: .statusError).allSatisfy { !$0.contains("timeline") })
    }
}
