import Foundation
import Testing

@testable import CacheCore

/// `import`: reads back what `export` wrote, with a preview, as one audited, undoable action;
/// bad input imports nothing.
@Suite struct ImportCommandTests {
    /// `namespace`'s export, as text.
    private func export(_ fixture: CLIFixture, _ namespace: String) throws -> String {
        let export = try fixture.run("export", fixture.path, namespace)
        #expect(export.status == 0, "\(export.stderr)")
        return export.stdout
    }

    /// `text` in a file of the fixture's folder.
    private func file(_ fixture: CLIFixture, _ text: String) throws -> String {
        let path = fixture.folder.file("import-\(UUID().uuidString).jsonl")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func exportClearImportGivesBackTheSameEntries() throws {
        let fixture = try CLIFixture()
        for namespace in ["tiles", "sessions", "colors"] {
            let before = try export(fixture, namespace)
            let input = try file(fixture, before)
            #expect(try fixture.run("clear", fixture.path, namespace, "--yes").status == 0)
            #expect(try fixture.count(namespace) == 0)
            let imported = try fixture.run("import", fixture.path, "--input", input, "--yes")
            #expect(imported.status == 0, "\(imported.stderr)")
            // Keys, values (JSON as written, binary as bytes), tags, creation and expiry times.
            #expect(try export(fixture, namespace) == before)
        }
        let hostile = try fixture.run("show", fixture.path, "tiles", CLIFixture.hostileKey, "--raw")
        #expect(hostile.stdout == #"{"b":[1,2],"a":"x"}"#)
    }

    @Test func thePreviewIsWhatIsImported() throws {
        let fixture = try CLIFixture()
        let lines = try export(fixture, "tiles").split(separator: "\n")
        // z1/0 is new (removed first); the other 10 replace existing entries.
        #expect(try fixture.run("invalidate", fixture.path, "tiles", "--key", "z1/0", "--yes").status == 0)
        let input = try file(fixture, lines.joined(separator: "\n") + "\n")
        let dryRun = try fixture.run("import", fixture.path, "--input", input, "--dry-run", "--json")
        let preview = try dryRun.object()
        #expect(preview["new"] as? Int == 1 && preview["replacing"] as? Int == 10)
        #expect(preview["auditID"] == nil)
        #expect(try fixture.count("tiles") == 10, "a dry run changes nothing")
        let run = try fixture.run("import", fixture.path, "--input", input, "--yes", "--json")
        let outcome = try run.object()
        for field in ["new", "replacing", "replacedBytes", "bytes"] {
            #expect(outcome[field] as? Int == preview[field] as? Int, "\(field)")
        }
        let auditID = try #require(outcome["auditID"] as? Int)
        let bytes = try #require(preview["bytes"] as? Int)
        let store = try CacheStore(path: fixture.path, options: .inspection())
        let record = try #require(try store.admin.auditRecord(Int64(auditID)))
        #expect(record.entries == 11 && record.bytes == bytes)
        #expect(record.target?.description == "import 11 entries into tiles")
        #expect(try store.inspector.namespace("tiles").entryCount == 11)
        #expect(try store.inspector.namespace("tiles").bytes == bytes)
        let text = try fixture.run("import", fixture.path, "--input", input, "--dry-run")
        #expect(text.stdout.hasPrefix("Import into tiles: 0 new, 11 replacing existing entries ("))
    }

    @Test func restoreRemovesTheImportedEntriesAndBringsBackTheReplacedOnes() throws {
        let fixture = try CLIFixture()
        let input = try file(
            fixture,
            """
            {"namespace":"colors","key":"1","value":"crimson","tags":["new"],"createdAt":1000,"expiresAt":null,"staleUntil":null,"version":""}
            {"namespace":"colors","key":"4","value":"teal","tags":[],"createdAt":1000,"expiresAt":null,"staleUntil":null,"version":""}
            {"namespace":"colors","key":"5","value":"plum","tags":[],"createdAt":1000,"expiresAt":null,"staleUntil":null,"version":""}

            """)
        let imported = try fixture.run("import", fixture.path, "--input", input, "--yes")
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 3 entries into colors"), "\(imported.stderr)")
        #expect(try fixture.run("show", fixture.path, "colors", "1", "--raw").stdout == #""crimson""#)
        // An app writes key 5 again after the import: the undo keeps its value.
        do {
            let store = try CacheStore(path: fixture.path)
            let colors = try store.cache("colors", key: Int.self, value: String.self, policy: NamespacePolicy(expiration: .never))
            try colors.set("violet", for: 5)
            try store.close()
        }
        let auditID = try #require(imported.stdout.split(separator: " ").last.map { String($0.dropLast()) })
        let undo = try fixture.run("restore", fixture.path, auditID)
        #expect(
            undo.stdout
                == "Undid import #\(auditID): removed 2 imported entries (1 written again since stays), restored 1 of 1 replaced.\n",
            "\(undo.stderr)")
        #expect(try fixture.run("show", fixture.path, "colors", "1", "--raw").stdout == #""red""#)
        #expect(try fixture.run("show", fixture.path, "colors", "4").status == 1, "the imported key is gone")
        #expect(try fixture.run("show", fixture.path, "colors", "5", "--raw").stdout == #""violet""#)
        #expect(try fixture.count("colors") == 4)
        let again = try fixture.run("restore", fixture.path, auditID)
        #expect(again.status == 1 && again.stderr.contains("already undone"))
    }

    @Test func badInputImportsNothingAndNamesTheLine() throws {
        let fixture = try CLIFixture()
        let good = #"{"namespace":"colors","key":"9","value":"x","tags":[],"createdAt":1,"expiresAt":null,"staleUntil":null,"version":""}"#
        let cases: [(String, String)] = [
            (good + "\n{\"namespace\":\"colors\",\n", "line 2: not a JSON object"),
            (good + "\n" + good.replacingOccurrences(of: #""createdAt":1"#, with: #""createdAt":1e300"#),
             "line 2: not a JSON object (or a number in it is out of range)"),
            (good + "\n" + good.replacingOccurrences(of: #""createdAt":1"#, with: #""createdAt":"soon""#),
             #"line 2: "createdAt" is not an integer"#),
            (good + "\n" + good.replacingOccurrences(of: #""key":"9""#, with: #""key":"8""#)
                .replacingOccurrences(of: #""colors""#, with: #""tiles""#), #"line 2: namespace "tiles" differs"#),
            (good + "\n" + good, #"line 2: key "9" is also on line 1"#),
            (good.replacingOccurrences(of: #""value":"x""#, with: #""valueBase64":"%%""#), #"line 1: "valueBase64" is not base64"#),
            (good.replacingOccurrences(of: #""value":"x","#, with: ""), #"line 1: no "value" or "valueBase64""#),
            (good.replacingOccurrences(of: #""expiresAt":null,"staleUntil":null"#, with: #""expiresAt":50,"staleUntil":10"#),
             #"line 1: "staleUntil" is before "expiresAt""#),
            (good.replacingOccurrences(of: #""colors""#, with: #""nope""#), "no namespace named 'nope'"),
            ("\n\n", "no entries to import"),
        ]
        for (text, message) in cases {
            let result = try fixture.run("import", fixture.path, "--input", try file(fixture, text), "--yes")
            #expect(result.status == 1 && result.errorLines.count == 1, "\(text): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(try fixture.count("colors") == 3)
        let store = try CacheStore(path: fixture.path, options: .inspection())
        #expect(try store.admin.auditLog().isEmpty, "nothing was audited")
        let long = String(repeating: "a", count: (32 << 20) + 1)
        let tooLong = try fixture.run("import", fixture.path, "--input", try file(fixture, long), "--yes")
        #expect(tooLong.status == 1 && tooLong.stderr.contains("line 1: longer than 32 MiB"))
        let redis = try fixture.run("import", "redis://127.0.0.1:1/0", "--input", try file(fixture, good), "--yes")
        #expect(redis.status == 1 && redis.errorLines == [
            "cachedeck: import writes into cache files only; redis://127.0.0.1:1/0 is a Redis URL"
        ])
        let refused = try fixture.run("import", fixture.path, "--input", try file(fixture, good))
        #expect(refused.status == 1 && refused.stderr.contains("refusing to import without --yes"))
        #expect(try fixture.count("colors") == 3)
    }
}
