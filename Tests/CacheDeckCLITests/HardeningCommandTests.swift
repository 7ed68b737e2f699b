import CacheDeckTestSupport
import Foundation
import PropertyBased
import Testing

/// Issue 15 through the real binary: hostile numbers, typos, terminal escapes, runaway
/// regular expressions, and random command lines.
@Suite struct HardeningCommandTests {
    static let readCommands: [[String]] = [
        ["info", "FILE"], ["namespaces", "FILE"], ["ls", "FILE", "colors"], ["ls", "FILE", "colors", "--sort", "size"],
        ["show", "FILE", "colors", "1"], ["timeline", "FILE"], ["stats", "FILE"], ["info", "FILE", "--json"],
    ]

    @Test(arguments: [
        "UPDATE entries SET created_at = \(Int64.min), accessed_at = \(Int64.min), expires_at = \(Int64.min)",
        "UPDATE entries SET size = \(Int64.max)", "UPDATE namespaces SET total_bytes = \(Int64.max)",
        "UPDATE clients SET last_seen = \(Int64.max), started_at = \(Int64.min), heartbeat_interval = \(Int64.max)",
        "UPDATE stats SET memory_hits = \(Int64.max), misses = \(Int64.max)",
    ])
    func numbersAtTheLimitsNeverCrashACommand(_ sql: String) throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute(sql, on: fixture.path)
        for command in Self.readCommands {
            let result = try fixture.run(command.map { $0 == "FILE" ? fixture.path : $0 })
            #expect(result.status == 0 || (result.status == 1 && result.errorLines.count == 1), "\(command)")
        }
        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1 && check.stdout.contains("out of range: "))
    }

    @Test func aTypoInANamespaceFailsWithOneLineAndNoAuditRow() throws {
        let fixture = try CLIFixture()
        let clear = try fixture.run("clear", fixture.path, "tilez", "--yes")
        #expect(clear.status == 1 && clear.errorLines == ["cachedeck: no namespace named 'tilez'"])
        #expect(!clear.stdout.contains("Undo"))
        let hostile = try fixture.run("clear", fixture.path, "ti\u{1B}[31mlez", "--yes")
        #expect(hostile.errorLines == ["cachedeck: no namespace named 'ti\\e[31mlez'"])
        let audit = try fixture.run("audit", fixture.path, "--json")
        #expect(!audit.stdout.contains("tilez"))
        let nothing = try fixture.run("invalidate", fixture.path, "colors", "--key", "404", "--yes")
        #expect(nothing.status == 0 && nothing.stdout == "Removed 0 entries (0 B).\n")
    }

    @Test func sqliteErrorTextsFromTheFileAreEscaped() throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute(
            """
            CREATE TRIGGER hostile BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'boom\u{1B}[2J'); END
            """, on: fixture.path)
        let result = try fixture.run("clear", fixture.path, "colors", "--yes")
        #expect(result.status == 1 && result.errorLines.count == 1)
        #expect(!result.stderr.contains("\u{1B}") && result.stderr.contains("boom\\e[2J"))
    }

    @Test func jsonEscapesC1ControlsAndBidiOverrides() throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute(
            "UPDATE entries SET key = 'a' || char(155) || 'b' || char(8238) || 'c' WHERE key = '1'", on: fixture.path)
        let result = try fixture.run("ls", fixture.path, "colors", "--json")
        #expect(result.status == 0)
        #expect(!result.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(result.stdout.contains(#"a\u009Bb\u202Ec"#))
        _ = try result.json()
    }

    @Test func aRunawayRegexFailsWithOneLine() throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute(
            "UPDATE entries SET key = '\(String(repeating: "a", count: 60))!' WHERE key = '1'", on: fixture.path)
        let result = try fixture.run("ls", fixture.path, "colors", "--filter", "regex:(a|a)+$")
        #expect(result.status == 1 && result.errorLines.count == 1 && result.stderr.contains("gave up after"))
    }

    @Test func aTamperedCursorIsRefusedWithOneLine() throws {
        let fixture = try CLIFixture()
        let json = #"{"namespace":"colors","sort":{"field":"key","descending":false},"segment":-1,"values":[],"id":1}"#
        let token = Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let result = try fixture.run("ls", fixture.path, "colors", "--after", token)
        #expect(result.status == 2 || result.status == 1)
        #expect(result.stderr.contains("cursor") && result.status < 128)
    }

    @Test func randomCommandLinesEndWithinTheBoundAndNeverCrash() async throws {
        let fixture = try CLIFixture()
        let vocabulary = [
            "ls", "show", "clear", "invalidate", "check", "timeline", "stats", "info", "namespaces", "audit",
            "colors", "tiles", "nosuch", "--json", "--yes", "--dry-run", "--key", "--tag", "--prefix", "--after",
            "--filter", "--sort", "--limit", "-1", "0", "99999999999999999999", "regex:(", "size>1k", "e30",
            "\u{1B}[31m", "\u{202E}", "--all", "--quick", "FILE",
        ]
        let words = Gen.int(in: 0...(vocabulary.count - 1)).map { vocabulary[$0] }.array(of: 0...6)
        await propertyCheck(count: 40, input: words) { line in
            let arguments = line.map { $0 == "FILE" ? fixture.path : $0 }
            let destructive = arguments.contains { ["clear", "invalidate", "--yes"].contains($0) }
            guard !destructive else { return }
            do {
                let result = try fixture.run(arguments)
                #expect(result.status < 128, "\(arguments)")
                if result.status == 1 { #expect(result.errorLines.count == 1, "\(arguments)") }
                #expect(!result.stderr.contains("\u{1B}"), "\(arguments)")
            } catch {
                Issue.record("\(arguments): \(error)")
            }
        }
    }

    @Test(arguments: ["namespaces", "entries", "entries_by_expiry", "stats"])
    func aDamagedRootPageIsReportedAndSalvaged(_ name: String) throws {
        let fixture = try CLIFixture()
        try DamagedPage.damageRoot(of: name, in: fixture.path)
        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1 && check.stdout.contains("SQLite integrity_check") && check.stdout.contains("Page "))
        #expect(
            check.errorLines == [
                "cachedeck: problems remain in \(fixture.path): SQLite structure (--fix salvages the readable entries "
                    + "into a fresh file)"
            ])
        for command in [["info", fixture.path], ["ls", fixture.path, "colors"]] {
            let result = try fixture.run(command)
            #expect(
                result.status == 0
                    || result.errorLines == [
                        "cachedeck: \(fixture.path) is damaged: database disk image is malformed; "
                            + "`cachedeck check \(fixture.path) --fix` salvages the readable entries"
                    ])
        }
        let fix = try fixture.run("check", fixture.path, "--fix", "--yes")
        #expect(fix.status == 0)
        let salvaged = ["namespaces", "entries"].contains(name) ? 0 : 19
        #expect(
            fix.stdout.split(separator: "\n").last.map(String.init)?.hasPrefix(
                "Salvaged \(salvaged) entries into a fresh \(fixture.path); the damaged file was moved to ") == true)
        #expect(try fixture.run("check", fixture.path).status == 0)
        #expect(try fixture.folder.listing().contains { $0.hasPrefix("cache.sqlite.corrupt-") })
    }

    @Test func aFileOthersMayWriteIsRefusedUnlessAllowed() throws {
        let fixture = try CLIFixture()
        chmod(fixture.path, 0o646)
        let refused = try fixture.run("info", fixture.path)
        #expect(
            refused.status == 1
                && refused.errorLines == [
                    "cachedeck: refusing \(fixture.path): it is writable by every user (mode 646), so anyone could "
                        + "have changed what it holds (--allow-writable opens it anyway)"
                ])
        let console = try fixture.run(fixture.path)
        #expect(console.status == 1 && console.stderr.contains("--allow-writable"))
        #expect(try fixture.run("info", fixture.path, "--allow-writable").status == 0)
    }

    @Test(.enabled(if: Unprivileged.isRoot, "only root can give a file to another user"))
    func anotherUsersCacheIsInspectedAndSaysWhose() throws {
        let fixture = try CLIFixture()
        #expect(chown(fixture.path, Unprivileged.user, Unprivileged.user) == 0)
        let info = try fixture.run("info", fixture.path)
        #expect(info.status == 0)
        #expect(info.stdout.hasPrefix("File         \(fixture.path), owned by nobody (uid \(Unprivileged.user))"))
    }

    @Test func demoFoldersArePrivateAndAPlantedSymlinkIsNotFollowed() throws {
        let fixture = try CLIFixture()
        let folder = fixture.folder.file("demo/nested")
        let made = try fixture.run("demo", folder + "/demo.sqlite", "--scale", "0.001")
        #expect(made.status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let link = fixture.folder.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.folder.file("target"))
        let planted = try fixture.run("demo", link, "--scale", "0.001")
        #expect(planted.status == 1 && planted.errorLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("target")))
    }

    @Test func aKeyThatIsNotUTF8PrintsAsTextThatFindsItAgain() throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute("UPDATE entries SET key = CAST(x'32ff' AS TEXT) WHERE key = '2'", on: fixture.path)
        let listing = try fixture.run("ls", fixture.path, "colors", "--json")
        #expect(listing.stdout.contains(#""key" : "2\\xff""#))
        let shown = try fixture.run("show", fixture.path, "colors", "2\\xff")
        #expect(shown.status == 0 && shown.stdout.contains("green"))
        let removed = try fixture.run("invalidate", fixture.path, "colors", "--key", "2\\xff", "--yes")
        #expect(removed.status == 0 && removed.stdout.hasPrefix("Removed 1 entry"))
    }
}
