import Foundation
import Testing

/// `export`, `show --raw`, and what every command shares: one way to name a namespace, one
/// number format, named fields in JSON action targets.
@Suite struct ExportAndConsistencyTests {
    @Test func exportWritesJSONLinesWhoseKeysReadBack() throws {
        let fixture = try CLIFixture()
        let export = try fixture.run("export", fixture.path, "tiles", "--filter", "tag:zoom:1")
        #expect(export.status == 0, "\(export.stderr)")
        let lines = export.stdout.split(separator: "\n")
        #expect(lines.count == 10)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["namespace"] as? String == "tiles" && object["tags"] as? [String] == ["zoom:1"])
            let key = try #require(object["key"] as? String)
            let base64 = try #require(object["valueBase64"] as? String)
            let bytes = try #require(Data(base64Encoded: base64))
            let raw = try fixture.run("show", fixture.path, "tiles", key, "--raw")
            #expect(raw.status == 0 && Data(raw.stdout.utf8) == bytes, "the key reads back to the same value")
        }
        let json = try fixture.run("export", fixture.path, "colors", "--key", "1")
        #expect(json.stdout.hasPrefix(#"{"namespace":"colors","key":"1","value":"red","tags":[]"#))
        let file = NSTemporaryDirectory() + "cachedeck-export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let written = try fixture.run("export", fixture.path, "colors", "--output", file)
        #expect(written.stderr == "Exported 3 entries to \(file).\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 3)
    }

    @Test func exportAsksBeforeReplacingAndKeepsTheCacheFilesPermissions() throws {
        let fixture = try CLIFixture()
        let mode = { (path: String) in
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1
        }
        #expect(mode(fixture.path) == 0o600 || chmod(fixture.path, 0o600) == 0)
        let file = NSTemporaryDirectory() + "cachedeck-export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try fixture.run("export", fixture.path, "colors", "--output", file).status == 0)
        #expect(mode(file) == 0o600, "no more readable than the cache file")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try fixture.run("export", fixture.path, "colors", "--output", file)
        #expect(refused.status == 1 && refused.errorLines == [
            "cachedeck: refusing to replace \(file) without --yes (stdin is not a terminal)"
        ])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")
        let replaced = try fixture.run("export", fixture.path, "colors", "--output", file, "--yes")
        #expect(replaced.status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 3)
        #expect(mode(file) == 0o600)
    }

    @Test func showRawWritesTheValuesBytes() throws {
        let fixture = try CLIFixture()
        let raw = try fixture.run("show", fixture.path, "tiles", "z1/3", "--raw")
        #expect(raw.status == 0 && Array(raw.stdout.utf8) == Array(repeating: 3, count: 400))
        #expect(try fixture.run("show", fixture.path, "tiles", "z1/3", "--raw", "--hex").status != 0)
    }

    @Test func aNamespaceIsTheArgumentAfterTheFileAndTheOldOptionStillWorks() throws {
        let fixture = try CLIFixture()
        for arguments in [["sessions"], ["--namespace", "sessions"], ["-n", "sessions"]] {
            let sweep = try fixture.run(["sweep", fixture.path] + arguments + ["--dry-run"])
            #expect(
                sweep.stdout.hasPrefix("Dry run: Sweep expired entries of sessions")
                    || sweep.stdout.contains("sessions"))
            let stats = try fixture.run(["stats", fixture.path] + arguments)
            #expect(stats.status == 0 && stats.stdout.hasPrefix("Activity of namespace sessions"))
        }
        #expect(try fixture.run("stats", fixture.path, "colors", "-n", "tiles").status != 0)
        // The fixture's apps have no loader: their load failures are unknown, not 0 (as in the console).
        let rows = try fixture.run("stats", fixture.path).stdout.split(separator: "\n").map {
            $0.split(separator: " ")
        }.filter { ["1m", "5m", "1h", "24h"].contains($0.first ?? "") }
        #expect(rows.count == 4 && rows.allSatisfy { Int($0.last ?? "0") == nil }, "\(rows)")
        #expect(!(try fixture.run("sweep", "--help").stdout.contains("--namespace")))
    }

    @Test func actionTargetsInJSONHaveNamedFields() throws {
        let fixture = try CLIFixture()
        let tag = try fixture.run("invalidate", fixture.path, "--tag", "zoom:1", "--dry-run", "--json")
        #expect(!tag.stdout.contains("_0"))
        let target = try #require(try tag.object()["target"] as? [String: Any])
        let selector = (target["invalidate"] as? [String: Any])?["selector"] as? [String: Any]
        #expect((selector?["tag"] as? [String: Any])?["tag"] as? String == "zoom:1")
        _ = try fixture.run("clear", fixture.path, "colors", "--yes")
        #expect(!(try fixture.run("audit", fixture.path, "--json").stdout.contains("_0")))
    }
}
