import Foundation
import Testing

/// `cachedeck check`: a healthy file exits 0, problems exit 1 with one line on stderr, and
/// `--fix` follows the confirmation rules of the other destructive commands.
@Suite struct CheckCommandTests {
    static let reportKeys: Set<String> = [
        "depth", "checkedAt", "sqliteProblems", "counterMismatches", "missingTagRows", "extraTagRows",
        "malformedTagLists", "orphanedEntries", "outOfRangeRows", "isHealthy",
    ]

    @Test func aHealthyFilePasses() throws {
        let fixture = try CLIFixture()
        let full = try fixture.run("check", fixture.path)
        #expect(full.status == 0 && full.stderr.isEmpty)
        #expect(full.stdout.hasPrefix("SQLite integrity_check  ok\n") && full.stdout.hasSuffix("Healthy.\n"))
        let quick = try fixture.run("check", fixture.path, "--quick", "--json").object()
        #expect(Set(quick.keys) == ["report"])
        let report = try #require(quick["report"] as? [String: Any])
        #expect(Set(report.keys) == Self.reportKeys && report["depth"] as? String == "quick")
        #expect(report["isHealthy"] as? Bool == true)
    }

    @Test func wrongCountersFailAndAreFixedOnlyWhenConfirmed() throws {
        let fixture = try CLIFixture()
        try CLIFixture.execute("UPDATE namespaces SET entry_count = 7 WHERE name = 'colors'", on: fixture.path)
        let bytes = fixture.bytes

        let check = try fixture.run("check", fixture.path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("Namespace counters      1 namespace disagrees\n"))
        #expect(check.stdout.contains("  colors: recorded 7 entries, 21 B; actual 3 entries, 21 B\n"))
        #expect(
            check.errorLines == [
                "cachedeck: problems remain in \(fixture.path): namespace counters (--fix rewrites counters and tag rows)"
            ])

        let refused = try fixture.run("check", fixture.path, "--fix")
        #expect(refused.status == 1 && refused.errorLines.count == 1)
        #expect(refused.stderr.hasPrefix("cachedeck: refusing to repair without --yes (stdin is not a terminal)"))
        let dryRun = try fixture.run("check", fixture.path, "--fix", "--dry-run")
        #expect(dryRun.status == 1)
        #expect(
            dryRun.stdout.hasSuffix(
                "Dry run: the counters of 1 namespace and 0 tag index rows would be rewritten. Nothing was changed.\n")
        )
        #expect(fixture.bytes == bytes)

        let fixed = try fixture.run("check", fixture.path, "--fix", "--yes", "--json")
        #expect(fixed.status == 0 && fixed.stderr.isEmpty)
        let outcome = try fixed.object()
        #expect(Set(outcome.keys) == ["report", "repair", "afterRepair"])
        let repair = try #require(outcome["repair"] as? [String: Any])
        #expect(Set(repair.keys) == ["countersRewritten", "tagRowsAdded", "tagRowsRemoved"])
        #expect(repair["countersRewritten"] as? Int == 1)
        let mismatch = try #require(
            ((outcome["report"] as? [String: Any])?["counterMismatches"] as? [[String: Any]])?.first)
        #expect(
            Set(mismatch.keys) == ["namespace", "recordedEntries", "actualEntries", "recordedBytes", "actualBytes"])
        #expect((outcome["afterRepair"] as? [String: Any])?["isHealthy"] as? Bool == true)
        #expect(try fixture.run("check", fixture.path).status == 0)
        #expect(try fixture.count("colors") == 3)
    }
}
