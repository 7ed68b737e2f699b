import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Damage to page 1's header of a cache file whose tables read (issue #27): a damaged cache,
/// reported by `check` and salvaged by `check --fix`, never "not a CacheDeck cache file".
@Suite struct DamagedHeaderTests {
    /// Header fields a failing disk can hit: SQLite's magic, the page size, the file format
    /// versions, the reserved bytes, the schema format, the text encoding, CacheDeck's format
    /// version, its application id and the page count (a count past the end with every page
    /// the tables use present is damage, not a truncation).
    static let offsets = [0, 8, 16, 18, 19, 20, 28, 44, 56, 60, 68]

    /// Page 1's b-tree header and first cell pointers, after the file header: the list of the
    /// file's tables, rebuilt from its cells.
    static let schemaPageOffsets = [100, 104, 108, 112]

    @Test(arguments: offsets)
    func checkReportsAndFixSalvagesEveryEntry(_ offset: Int) throws {
        try damageThenSalvage(at: offset, reason: "its header (page 1) is damaged; its tables are readable")
    }

    @Test(arguments: schemaPageOffsets)
    func damageToTheListOfTablesIsReportedAndSalvaged(_ offset: Int) throws {
        try damageThenSalvage(
            at: offset, reason: "its first page (the list of its tables) is damaged; its tables are readable")
    }

    @Test func aTruncatedFileIsStillTruncated() throws {
        let fixture = try CLIFixture()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as? Int)
        try #require(truncate(fixture.path, off_t(size / 4096 / 2 * 4096)) == 0)
        let check = try fixture.run("check", fixture.path)
        #expect(check.status != 0 && check.stderr.contains("it is truncated"), "\(check.stderr)")
    }

    private func damageThenSalvage(at offset: Int, reason: String) throws {
        let fixture = try CLIFixture()
        let entries = 3 + 11 + 5
        let file = try #require(FileHandle(forUpdatingAtPath: fixture.path))
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 4))
        try file.close()

        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1 && check.errorLines.count == 1, "\(check.stderr)")
        #expect(check.stderr.contains(reason), "\(check.stderr)")
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

/// A foreign `-wal` beside a cache (issue #27): reported, and `check --fix` salvages what the
/// main file holds; the main file is never overwritten by the foreign pages.
@Suite struct ForeignWALTests {
    @Test func checkReportsAndFixSalvagesTheMainFile() throws {
        let fixture = try CLIFixture()
        try placeForeignWAL(beside: fixture.path)
        let main = try #require(FileManager.default.contents(atPath: fixture.path))

        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1 && check.errorLines.count == 1, "\(check.stderr)")
        #expect(check.stderr.contains("its -wal holds another database's pages"), "\(check.stderr)")
        #expect(FileManager.default.contents(atPath: fixture.path) == main)

        let fix = try fixture.run("check", fixture.path, "--fix", "--yes")
        #expect(
            fix.status == 0 && fix.stdout.contains("Salvaged 19 entries into a fresh"), "\(fix.stdout)\(fix.stderr)")
        #expect(try fixture.count("tiles") == 11 && fixture.count("colors") == 3)
        // What was moved aside is the main file as it was (the foreign pages never went in).
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
                .first { $0.hasPrefix("cache.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(FileManager.default.contents(atPath: fixture.folder.file(aside)) == main)
    }
}
