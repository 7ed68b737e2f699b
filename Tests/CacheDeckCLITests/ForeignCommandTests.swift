import CacheDeckTestSupport
import Foundation
import Testing

/// The read and action commands on a cache another library wrote (a Laravel file built from
/// its published schema): `--json` shapes, unknowns as `null`, a sweep whose dry run counts
/// what it removes, undo through `restore`, and refusals with one line.
@Suite struct ForeignCommandTests {
    let folder: TemporaryFolder
    let path: String
    let now = Int(Date().timeIntervalSince1970)

    init() throws {
        folder = try TemporaryFolder()
        path = folder.file("database.sqlite")
        try executeSQL(
            """
            CREATE TABLE "cache" ("key" varchar not null, "value" text not null, "expiration" integer not null,
            primary key ("key"));
            INSERT INTO cache VALUES ('app_user:1', 'a:1:{s:1:"n";i:1;}', \(now + 3600)),
                ('app_old:1', 'i:1;', \(now - 60)), ('app_old:2', 'i:2;', \(now - 120)),
                ('app_evil' || char(27) || ']0;pwned' || char(7), 's:0:"";', \(now + 60));
            """, on: path)
    }

    private func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(Array(arguments), folder: folder).wait()
    }

    @Test func readCommandsPrintJSONWithUnknownsAsNull() throws {
        let info = try run("info", path, "--json").object()
        #expect(info["format"] as? String == "Laravel database cache")
        #expect(info["entries"] as? Int == 4 && info["expired"] as? Int == 2)
        #expect(try run("info", path).stdout.contains("4 entries, 79 B of keys and values, in 1 namespace\n"))
        let page = try run("ls", path, "cache", "--limit", "2", "--json").object()
        let rows = try #require(page["rows"] as? [[String: Any]])
        #expect(rows.map { $0["key"] as? String } == ["app_evil\u{1B}]0;pwned\u{7}", "app_old:1"])
        #expect(rows.allSatisfy { $0["createdAt"] == nil && $0["hits"] == nil })
        let next = try #require(page["next"] as? String)
        let second = try run("ls", path, "cache", "--limit", "2", "--after", next, "--json").object()
        #expect((second["rows"] as? [[String: Any]])?.map { $0["key"] as? String } == ["app_old:2", "app_user:1"])
        let table = try run("ls", path, "cache")
        #expect(!table.stdout.contains("\u{1B}") && table.stdout.contains("app_evil"))
        let shown = try run("show", path, "cache", "app_user:1")
        #expect(shown.stdout.contains("PHP serialize") && shown.stdout.contains("a:1:{s:1:\"n\";i:1;}"))
    }

    @Test func sweepRemovesWhatItsDryRunCountedAndRestoreBringsItBack() throws {
        let dry = try run("sweep", path, "cache", "--dry-run")
        #expect(dry.stdout.contains("2 entries"))
        let refused = try run("sweep", path, "cache")
        #expect(refused.status == 1 && refused.errorLines.count == 1 && refused.stderr.contains("--yes"))
        let swept = try run("sweep", path, "cache", "--yes", "--json").object()
        #expect(swept["removed"] as? Int == 2)
        #expect(try run("info", path, "--json").object()["entries"] as? Int == 2)
        let audit = try #require(try run("audit", path, "--json").json() as? [[String: Any]])
        #expect(audit.first?["summary"] as? String == "sweep expired")
        let id = try #require(swept["actionID"] as? Int)
        #expect(try run("restore", path, "\(id)", "--json").object()["restored"] as? Int == 2)
        #expect(try run("info", path, "--json").object()["entries"] as? Int == 4)
        let again = try run("restore", path, "\(id)")
        #expect(again.status == 1 && again.stderr.contains("already undone"))
    }

    @Test func aFilterTheFormatCannotAnswerIsRefused() throws {
        let result = try run("invalidate", path, "cache", "--filter", "hits=0", "--yes")
        #expect(result.status == 1 && result.stderr.contains("records no hits"))
        #expect(try run("info", path, "--json").object()["entries"] as? Int == 4)
    }
}

/// python-diskcache's `cache.db` (built from its schema): once refused as another
/// application's file, now read; what only CacheDeck files support still refuses with one
/// line and leaves the file as it was.
@Suite struct ForeignDiskCacheCommandTests {
    @Test func readsWorkAndCacheDeckOnlyCommandsRefuseWithOneLine() throws {
        let folder = try TemporaryFolder()
        let runs = try TemporaryFolder()
        let path = try BadFile.pythonDiskcache.make(in: folder.path)
        let bytes = FileManager.default.contents(atPath: path)
        let info = try CLIProcess(["info", path, "--json"], folder: runs).wait()
        #expect(try info.object()["format"] as? String == "python-diskcache")
        #expect(try CLIProcess(["info", path], folder: runs).wait().stdout.contains(", in 1 namespace\n"))
        #expect(try folder.listing() == ["cache.db"])
        for command in [["check", path], ["clear", path, "--all", "--yes"], ["purge", path, "--yes"], ["stats", path]] {
            let result = try CLIProcess(command, folder: runs).wait()
            #expect(result.status == 1 && result.stdout.isEmpty && result.errorLines.count == 1, "\(command)")
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        // The CacheDeck-only commands open it through CacheCore, whose read-only open of a WAL
        // file leaves SQLite's empty sidecars, as BadInputTests allows; reads leave nothing.
        let listing = Set(try folder.listing())
        #expect(listing.isSubset(of: ["cache.db", "cache.db-wal", "cache.db-shm"]), "left behind: \(listing)")
        #expect(FileManager.default.contents(atPath: path + "-wal")?.isEmpty != false)
    }
}
