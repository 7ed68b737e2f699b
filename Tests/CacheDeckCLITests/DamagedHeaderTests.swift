import Foundation
import Testing

@testable import CacheCore

/// Damage to page 1's header of a cache file whose tables read (issue #27): a damaged cache,
/// reported by `check` and salvaged by `check --fix`, never "not a CacheDeck cache file".
@Suite struct DamagedHeaderTests {
    /// Header fields a failing disk can hit: SQLite's magic, the page size, the file format
    /// versions, the reserved bytes, the schema format, the text encoding, CacheDeck's format
    /// version and its application id.
    static let offsets = [0, 8, 16, 18, 19, 20, 44, 56, 60, 68]

    @Test(arguments: offsets)
    func checkReportsAndFixSalvagesEveryEntry(_ offset: Int) throws {
        let fixture = try CLIFixture()
        let entries = 3 + 11 + 5
        let file = try #require(FileHandle(forUpdatingAtPath: fixture.path))
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 4))
        try file.close()

        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1 && check.errorLines.count == 1, "\(check.stderr)")
        #expect(check.stderr.contains("its header (page 1) is damaged; its tables are readable"), "\(check.stderr)")
        #expect(check.stderr.contains("--fix"))

        let fix = try fixture.run("check", fixture.path, "--fix", "--yes")
        #expect(fix.status == 0, "\(fix.stderr)")
        #expect(fix.stdout.contains("Salvaged \(entries) entries into a fresh"), "\(fix.stdout)")
        #expect(try fixture.run("check", fixture.path).stdout.hasSuffix("Healthy.\n"))
        #expect(try fixture.count("tiles") == 11 && fixture.count("colors") == 3)
    }

    @Test func anAppOpeningItSalvagesItWhenItMayQuarantine() throws {
        let fixture = try CLIFixture()
        let file = try #require(FileHandle(forUpdatingAtPath: fixture.path))
        try file.seek(toOffset: 68)
        try file.write(contentsOf: Data(repeating: 0, count: 4))
        try file.close()
        var options = StoreOptions()
        options.onDamagedFile = .quarantine
        let store = try CacheStore(path: fixture.path, options: options)
        defer { try? store.close() }
        let report = try #require(store.quarantinedFile)
        #expect(report.salvagedEntries == 19 && report.reason.contains("header (page 1)"))
        #expect(try store.cache("colors", key: Int.self, value: String.self).get(2) == "green")
    }
}
