import Foundation
import Testing

/// One vocabulary, one number format, one dash and one set of selectors across the commands
/// (and with the console).
@Suite struct CLIConsistencyTests {
    @Test func invalidateAndTTLTakeTheConsolesFilterAndRemoveWhatThePreviewCounted() throws {
        let fixture = try CLIFixture()
        let preview = try fixture.run("invalidate", fixture.path, "tiles", "--filter", "size>=800 z1", "--dry-run")
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(
            preview.stdout.hasPrefix("Dry run: ") && preview.stdout.contains(": 3 entries, "), "\(preview.stdout)")
        let json = try fixture.run("invalidate", fixture.path, "tiles", "-f", "size>=800", "--dry-run", "--json").object()
        let impact = try #require(json["impact"] as? [String: Any])
        #expect(impact["entries"] as? Int == 3)
        let removed = try fixture.run("invalidate", fixture.path, "tiles", "--filter", "size>=800 z1", "--yes")
        #expect(removed.stdout.hasPrefix("Removed 3 entries ("), "\(removed.stdout) \(removed.stderr)")
        #expect(try fixture.count("tiles") == 8)

        let ttl = try fixture.run("ttl", fixture.path, "tiles", "1h", "--filter", "prefix:z1/", "--yes", "--json")
        #expect(try ttl.object()["removed"] as? Int == 7, "a lone prefix: acts as --prefix")
        let nothing = try fixture.run("expire", fixture.path, "tiles", "--filter", "size>1MB", "--yes")
        #expect(nothing.status == 1 && nothing.errorLines == ["cachedeck: no entry matches 'size>1MB'"])
        let typo = try fixture.run("invalidate", fixture.path, "tiles", "--filter", "size>>1", "--yes")
        #expect(typo.status == 2 && typo.stderr.contains("--filter"), "\(typo.stderr)")
        #expect(try fixture.count("tiles") == 8)
    }

    @Test func sharesCountsAndDashesReadAsInTheConsole() throws {
        let fixture = try CLIFixture()
        let sweep = try fixture.run("sweep", fixture.path, "sessions", "--dry-run")
        #expect(sweep.stdout == "Dry run: Sweep sessions: 3 entries, 42 B, 0.0% of recent hits. Nothing was changed.\n")
        let one = try fixture.run("invalidate", fixture.path, "colors", "--key", "1", "--dry-run")
        #expect(one.stdout.contains(": 1 entry, "), "\(one.stdout)")
        let namespaces = try fixture.run("namespaces", fixture.path).stdout
        #expect(namespaces.contains("–") && !namespaces.contains("—"), "\(namespaces)")
        #expect(namespaces.split(separator: "\n").first?.contains("entries  expired") == true)
    }

    @Test func lsNamesItsColumnsAndOrdersAsTheConsoleDoes() throws {
        let fixture = try CLIFixture()
        let listing = try fixture.run("ls", fixture.path, "colors", "--sort", "accessed")
        #expect(listing.status == 0, "\(listing.stderr)")
        let header = listing.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            header.split(separator: " ", omittingEmptySubsequences: true)
                == ["key", "size", "age", "expires", "hits", "accessed", "tags"])
        #expect(listing.stdout.contains(" never"), "written, never read")
        for (name, older) in [("age", "created"), ("accessed", "access")] {
            let named = try fixture.run("ls", fixture.path, "tiles", "--sort", name, "--reverse", "--limit", "3")
            let old = try fixture.run("ls", fixture.path, "tiles", "--sort", older, "--reverse", "--limit", "3")
            func keys(_ result: CLIResult) -> [Substring] {
                result.stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first }
            }
            #expect(
                old.status == 0 && keys(named).count == 4 && keys(old) == keys(named),
                "\(older) is the older name of \(name)")
        }
        let help = try fixture.run("ls", "--help").stdout
        #expect(help.contains("age") && help.contains("accessed"))
    }

    @Test func theHelpNamesTheNamespaceAndOnePrefixOption() throws {
        let fixture = try CLIFixture()
        for command in ["sweep", "stats"] {
            let help = try fixture.run(command, "--help").stdout
            #expect(help.contains("<namespace>") && !help.contains("<positional>"), "\(command): \(help)")
        }
        let console = try fixture.run("console", "--help").stdout
        #expect(console.contains("--redis-prefix") && !console.contains("--prefix <"), "\(console)")
        let older = try fixture.run("console", "redis://127.0.0.1:1/0", "--prefix", "x:", "--redis-prefix", "y:")
        #expect(older.status == 2 && older.stderr.contains("--redis-prefix once"), "\(older.stderr)")
    }
}
