import Foundation
import CacheCore
import Testing

/// sweep, clear, invalidate, restore and audit through the binary: refusals without `--yes`
/// when stdin is not a terminal, dry runs that change nothing, and a round trip with undo.
@Suite struct ActionCommandTests {
    @Test func destructiveCommandsRefuseWithoutYesAndDryRunsChangeNothing() throws {
        let fixture = try CLIFixture()
        let bytes = fixture.bytes
        let refusals: [([String], String)] = [
            (["sweep", fixture.path], "sweep all"), (["clear", fixture.path, "colors"], "clear colors"),
            (["clear", fixture.path, "--all"], "clear all"),
            (["invalidate", fixture.path, "tiles", "--tag", "zoom:1"], "invalidate"),
        ]
        for (arguments, action) in refusals {
            let refused = try fixture.run(arguments)
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(arguments)")
            #expect(
                refused.errorLines.count == 1
                    && refused.stderr.hasPrefix("cachedeck: refusing to \(action)")
                    && refused.stderr.contains("without --yes (stdin is not a terminal)"), "\(refused.stderr)")
            let dryRun = try fixture.run(arguments + ["--dry-run"])
            #expect(
                dryRun.status == 0 && dryRun.stdout.hasPrefix("Dry run: ")
                    && dryRun.stdout.hasSuffix("Nothing was changed.\n"))
        }
        let sweep = try fixture.run("sweep", fixture.path, "--dry-run")
        #expect(sweep.stdout == "Dry run: Sweep all: 3 entries, 42 B, 0.0% of recent hits. Nothing was changed.\n")
        let json = try fixture.run("clear", fixture.path, "colors", "--dry-run", "--json").object()
        #expect(Set(json.keys) == ["target", "impact"])
        #expect((json["target"] as? [String: Any])?["clear"] != nil)
        let impact = try #require(json["impact"] as? [String: Any])
        #expect(
            Set(impact.keys) == ["entries", "bytes", "recentHitShare", "sampleKeys", "isDiskFull"]
                && impact["entries"] as? Int == 3 && impact["isDiskFull"] as? Bool == false)
        #expect(fixture.bytes == bytes)
        #expect(try fixture.run("audit", fixture.path).stdout.hasSuffix("(none)\n"))
    }

    /// `info` says what a compact would give back; `compact` gives it back and says how much.
    @Test func compactGivesFreePagesBackAndInfoSaysHowMuchFirst() throws {
        let fixture = try CLIFixture()
        let app = try CacheStore(path: fixture.path)
        let filler = try app.cache("filler", key: Int.self, value: String.self)
        try filler.set((0..<1000).map { (key: $0, value: String(repeating: "f", count: 500)) })
        try filler.invalidate(Array(0..<1000))
        try app.close()
        let info = try fixture.run("info", fixture.path)
        #expect(info.stdout.contains("Compactable ") && info.stdout.contains("`cachedeck compact` gives them back"))
        let text = try fixture.run("compact", fixture.path)
        #expect(text.status == 0 && text.stdout.hasPrefix("Compacted \(fixture.path): "), "\(text.stderr)")
        #expect(text.stdout.contains(" on disk (gave back "))
        let json = try fixture.run("compact", fixture.path, "--json").object()
        #expect(Set(json.keys) == ["before", "after", "rebuilt", "isCancelled"])
        let after = try #require(json["after"] as? [String: Any])
        #expect(after["freeBytes"] as? Int == 0 && after["walBytes"] as? Int == 0, "\(after)")
    }

    @Test func sweepClearInvalidateAuditAndRestoreRoundTrip() throws {
        let fixture = try CLIFixture()
        let sweep = try fixture.run("sweep", fixture.path, "--yes")
        #expect(sweep.status == 0 && sweep.stdout == "Removed 3 entries (42 B).\n")
        #expect(try fixture.count("sessions") == 2)

        let clear = try fixture.run("clear", fixture.path, "colors", "--yes", "--json").object()
        #expect(
            Set(clear.keys) == [
                "auditID", "removed", "bytes", "isUndoable", "isCancelled", "wasDiskFull", "notRemoved", "isAudited",
            ])
        #expect(clear["removed"] as? Int == 3 && clear["isUndoable"] as? Bool == true)
        #expect(clear["wasDiskFull"] as? Bool == false && clear["notRemoved"] as? Int == 0)
        let clearID = try #require(clear["auditID"] as? Int)
        #expect(try fixture.count("colors") == 0)

        let invalidate = try fixture.run("invalidate", fixture.path, "tiles", "--tag", "zoom:1", "--yes")
        #expect(
            invalidate.status == 0
                && invalidate.stdout.hasPrefix("Removed 10 entries (5.5 kB). Undo with: cachedeck restore "))
        #expect(try fixture.count("tiles") == 1)

        let audit = try fixture.run("audit", fixture.path)
        let lines = audit.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines[0].hasPrefix("id  when"))
        #expect(lines[1].contains("invalidate") && lines[2].contains("clear colors") && lines[3].contains("sweep all"))
        #expect(lines[2].hasSuffix("restore \(clearID)") && lines[3].hasSuffix("–"))

        let restore = try fixture.run("restore", fixture.path, "\(clearID)")
        #expect(restore.status == 0 && restore.stdout == "Restored 3 entries of action #\(clearID).\n")
        #expect(try fixture.count("colors") == 3)
        let again = try fixture.run("restore", fixture.path, "\(clearID)", "--json")
        #expect(
            again.status == 1
                && again.errorLines == ["cachedeck: cannot restore: action #\(clearID) was already undone"])

        let records = try #require(try fixture.run("audit", fixture.path, "--json").json() as? [[String: Any]])
        #expect(records.count == 4)
        #expect(
            Set(records[0].keys) == [
                "id", "at", "origin", "restoredAuditID", "entries", "bytes", "canUndo", "finishedAt", "sampleKeys",
            ],
            "the restore, newest first")
        #expect(records[0]["restoredAuditID"] as? Int == clearID && records[0]["entries"] as? Int == 3)
        #expect(records[2]["undoneAt"] != nil && records[2]["canUndo"] as? Bool == false)
        let origin = try #require(records[0]["origin"] as? [String: Any])
        #expect(Set(origin.keys) == ["user", "host", "pid", "program"] && origin["program"] as? String == "cachedeck")
    }
}

/// `audit` after an action on many keys: each line stays short, the full target is in `--json`.
@Suite struct AuditLineTests {
    @Test func auditLinesAreBoundedAndJSONKeepsTheWholeTarget() throws {
        let fixture = try CLIFixture()
        let keys = (0..<500).map { "missing-key-with-a-long-name-\($0)" }
        let list = fixture.folder.file("keys.txt")
        try Data(keys.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: list))
        let invalidate = try fixture.run("invalidate", fixture.path, "tiles", "--keys-from", list, "--yes")
        #expect(invalidate.status == 0, "\(invalidate.stderr)")
        let audit = try fixture.run("audit", fixture.path)
        let lines = audit.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.count <= 160 }, "\(lines.map(\.count))")
        #expect(lines[1].contains("…"))
        // Who ran it is the account's name, as `ls -l` shows it, even without $USER.
        #expect(!lines[1].contains("uid "), "\(lines[1])")
        let json = try fixture.run("audit", fixture.path, "--json").stdout
        #expect(json.contains("missing-key-with-a-long-name-499"))
    }
}

/// `--keys-from`: a key list from a file selects what as many `--key`s would, with `--key`s
/// beside it; a list that is not UTF-8 or names no key is refused with one line.
@Suite struct KeyListTests {
    @Test func keysFromAFileSelectWhatKeysDo() throws {
        let fixture = try CLIFixture()
        let list = fixture.folder.file("keys.txt")
        try Data("z1/1\n\nz1/2\nmissing\n".utf8).write(to: URL(fileURLWithPath: list))
        let preview = try fixture.run("invalidate", fixture.path, "tiles", "--keys-from", list, "--key", "z1/3", "--dry-run")
        #expect(preview.stdout.hasPrefix("Dry run: Invalidate keys tiles/{z1/3,z1/1,z1/2,missing}: 3 entries, 912 B"), "\(preview.stdout)")
        let removed = try fixture.run("invalidate", fixture.path, "tiles", "--keys-from", list, "--yes")
        #expect(removed.status == 0 && removed.stdout.hasPrefix("Removed 2 entries (508 B)."), "\(removed.stdout)")
        #expect(try fixture.count("tiles") == 9)
        for (content, error) in [
            (Data([0x7A, 0xFF, 0x0A]), "line 1 of \(list) is not UTF-8 text (type such keys as ls shows them)"),
            (Data("\n\n".utf8), "\(list) lists no keys"),
        ] {
            try content.write(to: URL(fileURLWithPath: list))
            let refused = try fixture.run("invalidate", fixture.path, "tiles", "--keys-from", list, "--yes")
            #expect(refused.status == 1 && refused.errorLines == ["cachedeck: --keys-from: " + error], "\(refused.stderr)")
        }
        let folder = fixture.folder.path
        let refused = try fixture.run("invalidate", fixture.path, "tiles", "--keys-from", folder, "--yes")
        #expect(refused.status == 1 && refused.errorLines == ["cachedeck: --keys-from: cannot read \(folder): Is a directory"], "\(refused.stderr)")
        #expect(try fixture.count("tiles") == 9)
    }
}

/// `ttl` and `expire` through the binary: a new TTL, never, an extension and expire now, each
/// audited and undone.
@Suite struct ExpiryCommandTests {
    @Test func ttlAndExpireChangeWhenEntriesExpireAndRestoreUndoesIt() throws {
        let fixture = try CLIFixture()
        func expiry(_ key: String) throws -> String {
            try fixture.run("show", fixture.path, "colors", key).stdout.split(separator: "\n")
                .first { $0.hasPrefix("Expires") }.map(String.init) ?? ""
        }
        #expect(try expiry("1").contains("never"))
        let set = try fixture.run("ttl", fixture.path, "colors", "1h", "--key", "1", "--yes")
        #expect(set.status == 0 && set.stdout.hasPrefix("Changed the expiry of 1 entry"), "\(set.stderr)")
        #expect(try expiry("1").contains("in 1h") || expiry("1").contains("in 59m"))
        let extended = try fixture.run("ttl", fixture.path, "colors", "+1h", "--key", "1", "--key", "2", "--yes")
        #expect(extended.stdout.hasPrefix("Changed the expiry of 2 entries"))
        #expect(try expiry("2").contains("never"), "extending never keeps never")
        let expired = try fixture.run("expire", fixture.path, "colors", "--key", "3", "--yes")
        #expect(expired.status == 0)
        #expect(try fixture.run("show", fixture.path, "colors", "3").stdout.contains("expired"))
        let audit = try fixture.run("audit", fixture.path).stdout
        #expect(audit.contains("expire now of key colors/3") && audit.contains("set TTL 1h of key colors/1"))
        // A script passes --yes to every action; a restore accepts it (it never asks).
        let restore = try fixture.run("restore", fixture.path, "1", "--yes")
        #expect(restore.status == 0 && restore.stdout == "Restored 1 entry of action #1.\n")
        #expect(try expiry("1").contains("in 1h") == false)
        let bad = try fixture.run("ttl", fixture.path, "colors", "soon", "--key", "1")
        #expect(bad.status == 2 && bad.stderr.contains("bad duration 'soon'"))
    }
}

/// `sweep --keep-stale-window` keeps the expired entries still inside their stale window;
/// `sweep` alone removes them too. The audit JSON says which ran.
@Suite struct StaleWindowSweepCommandTests {
    @Test func sweepKeepsTheStaleWindowOnlyWhenTold() throws {
        let fixture = try CLIFixture()
        let store = try CacheStore(path: fixture.path)
        try store.cache("recent", key: String.self, value: Int.self)
            .set(1, for: "r", expiration: .at(Date(timeIntervalSinceNow: -60)))
        try store.close()
        let dryRun = try fixture.run("sweep", fixture.path, "--keep-stale-window", "--dry-run")
        #expect(
            dryRun.status == 0 && dryRun.stdout.hasPrefix("Dry run: Sweep all, keeping the stale window: 3 entries, "),
            "\(dryRun.stdout)")
        let kept = try fixture.run("sweep", fixture.path, "--keep-stale-window", "--yes", "--json").object()
        #expect(kept["removed"] as? Int == 3)
        #expect(try fixture.count("recent") == 1 && fixture.count("sessions") == 2)
        let swept = try fixture.run("sweep", fixture.path, "recent", "--yes")
        #expect(swept.status == 0 && swept.stdout.hasPrefix("Removed 1 entry"), "\(swept.stdout)")
        #expect(try fixture.count("recent") == 0)
        let records = try #require(try fixture.run("audit", fixture.path, "--json").json() as? [[String: Any]])
        let targets = records.compactMap { ($0["target"] as? [String: Any])?["sweep"] as? [String: Any] }
        #expect(targets.count == 2)
        #expect(targets.map { $0["keepingStaleWindow"] as? Bool } == [false, true])
        #expect(targets.first?["namespace"] as? String == "recent")
    }
}
