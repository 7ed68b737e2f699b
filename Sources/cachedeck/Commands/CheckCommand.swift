import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// `cachedeck check FILE [--quick] [--fix [--yes] [--dry-run]]`
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the file: SQLite's integrity check, namespace counters and the tag index.",
        discussion: """
            Runs PRAGMA integrity_check (quick_check with --quick), recounts every namespace's entries \
            and bytes against its counters, and compares the tag index with the entries' tag lists, \
            in one snapshot (apps may keep writing). --fix rewrites wrong counters and tag rows; on a file \
            SQLite finds damaged it instead copies every readable entry into a fresh file and moves the \
            damaged one aside. It asks first on a terminal and needs --yes otherwise. \
            Exits 1 while problems remain.
            """)

    @OptionGroup var store: StoreArguments
    @Flag(help: "Run SQLite's quick_check instead of the full integrity_check.") var quick = false
    @Flag(help: "Rewrite wrong namespace counters and tag index rows.") var fix = false
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if !fix && (confirmation.yes || confirmation.dryRun) {
            throw ValidationError("--yes and --dry-run go with --fix")
        }
    }

    func run() throws {
        let store: CacheStore
        do {
            store = try fix ? self.store.openForActions() : self.store.openForReading()
        } catch CacheError.damaged where fix {
            // Too damaged to open (a damaged header whose tables read): salvage what reads.
            return try salvage(nil, dryRun: confirmation.dryRun)
        }
        let depth: IntegrityCheckDepth = quick ? .quick : .full
        let report = try store.admin.check(depth)
        var outcome = CheckOutcome(report: report, repair: nil, afterRepair: nil)
        if fix && !report.sqliteProblems.isEmpty {
            try show(outcome)
            return try salvage(store, dryRun: confirmation.dryRun)
        }
        if fix && report.isRepairable && !confirmation.dryRun {
            guard try confirmed(report) else {
                try show(outcome)
                FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
                return try failIfUnhealthy(outcome)
            }
            outcome.repair = try store.admin.repair()
            outcome.afterRepair = try store.admin.check(depth)
        }
        try show(outcome)
        if fix && confirmation.dryRun && report.isRepairable && !output.json {
            print("Dry run: \(Self.describeRepairs(report)) would be rewritten. Nothing was changed.")
        }
        try failIfUnhealthy(outcome)
    }

    /// `--fix` on a file SQLite finds damaged: copy what can be read into a fresh file and
    /// move the damaged one aside (recounting from damaged b-trees would make things worse).
    private func salvage(_ opened: CacheStore?, dryRun: Bool) throws {
        let question = "Salvage the readable entries into a fresh file and move the damaged one aside?"
        if dryRun {
            if !output.json { print("Dry run: \(question.dropLast()). Nothing was changed.") }
            return
        }
        guard try confirmed(question) else {
            FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
            throw Failure("problems remain in \(store.file): SQLite structure (--fix salvages the readable entries)")
        }
        try opened?.close()
        let moved = try CacheStore.salvage(path: store.file)
        let salvaged = moved.salvagedEntries ?? 0
        if output.json {
            try JSONOutput.print(SalvageOutcome(salvagedEntries: salvaged, movedTo: moved.movedTo))
        } else {
            print(
                "Salvaged \(Figures.counted(salvaged, "entry", "entries")) into a fresh \(store.file); "
                    + "the damaged file was moved to \(moved.movedTo).")
        }
    }

    private func confirmed(_ report: IntegrityReport) throws -> Bool {
        try confirmed("Rewrite \(Self.describeRepairs(report))?")
    }

    private func confirmed(_ question: String) throws -> Bool {
        try confirmation.confirmed(
            question,
            refusal: "refusing to repair without --yes (stdin is not a terminal); --dry-run shows what it would do")
    }

    /// Fails (exit 1) while the final report has problems.
    private func failIfUnhealthy(_ outcome: CheckOutcome) throws {
        let final = outcome.afterRepair ?? outcome.report
        guard final.isHealthy else {
            let hint =
                !final.sqliteProblems.isEmpty && !fix
                ? " (--fix salvages the readable entries into a fresh file)"
                : final.isRepairable && final.sqliteProblems.isEmpty && !fix
                    ? " (--fix rewrites counters and tag rows)" : ""
            throw Failure("problems remain in \(store.file): \(Self.problems(final).joined(separator: ", "))\(hint)")
        }
    }

    private func show(_ outcome: CheckOutcome) throws {
        if output.json { return try JSONOutput.print(outcome) }
        print(Self.render(outcome.report))
        if let repair = outcome.repair, let after = outcome.afterRepair {
            print()
            print(
                "Repaired: recounted \(Figures.counted(repair.countersRewritten, "namespace", "namespaces")), added "
                    + "\(repair.tagRowsAdded) and "
                    + "removed \(repair.tagRowsRemoved) tag rows. After the repair:")
            print(Self.render(after))
        }
    }

    private static func render(_ report: IntegrityReport) -> String {
        var lines = [
            Fields(items: [
                (
                    report.depth == .full ? "SQLite integrity_check" : "SQLite quick_check",
                    report.sqliteProblems.isEmpty ? "ok" : "\(report.sqliteProblems.count) problems"
                ),
                (
                    "Namespace counters",
                    report.counterMismatches.isEmpty
                        ? "ok"
                        : Figures.counted(report.counterMismatches.count, "namespace disagrees", "namespaces disagree")
                ),
                (
                    "Tag index",
                    report.missingTagRows + report.extraTagRows == 0
                        ? "ok" : "\(report.missingTagRows) rows missing, \(report.extraTagRows) extra"
                ),
                ("Tag lists", report.malformedTagLists == 0 ? "ok" : "\(report.malformedTagLists) not valid JSON"),
                (
                    "Orphaned entries",
                    report.orphanedEntries == 0 ? "ok" : "\(report.orphanedEntries) without a namespace"
                ),
                (
                    "Values in range",
                    report.outOfRangeRows.isEmpty
                        ? "ok" : Figures.counted(report.outOfRangeRows.count, "row out of range", "rows out of range")
                ),
            ]
            ).rendered
        ]
        lines += report.sqliteProblems.map { "  " + TerminalText.sanitize($0) }
        lines += report.outOfRangeRows.map { "  out of range: " + TerminalText.sanitize($0) }
        lines += report.counterMismatches.map { mismatch in
            "  \(TerminalText.sanitize(mismatch.namespace)): recorded \(Formatting.count(mismatch.recordedEntries)) "
                + "entries, \(Formatting.count(Int(mismatch.recordedBytes))) B; actual "
                + "\(Formatting.entries(mismatch.actualEntries)), \(Formatting.count(Int(mismatch.actualBytes))) B"
        }
        lines.append(report.isHealthy ? "Healthy." : "Problems: \(problems(report).joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    private static func problems(_ report: IntegrityReport) -> [String] {
        var problems: [String] = []
        if !report.sqliteProblems.isEmpty { problems.append("SQLite structure") }
        if !report.counterMismatches.isEmpty { problems.append("namespace counters") }
        if report.missingTagRows + report.extraTagRows > 0 { problems.append("tag index") }
        if report.malformedTagLists > 0 { problems.append("tag lists") }
        if report.orphanedEntries > 0 { problems.append("orphaned entries") }
        if !report.outOfRangeRows.isEmpty { problems.append("values out of range") }
        return problems
    }

    private static func describeRepairs(_ report: IntegrityReport) -> String {
        "the counters of \(Figures.counted(report.counterMismatches.count, "namespace", "namespaces")) and "
            + Figures.counted(report.missingTagRows + report.extraTagRows, "tag index row", "tag index rows")
    }
}

/// `check --json`: the report, and when --fix ran, what it rewrote and the report after.
struct CheckOutcome: Encodable {
    let report: IntegrityReport
    var repair: IntegrityRepair?
    var afterRepair: IntegrityReport?
}

/// `check --fix --json` on a damaged file: how many entries the fresh file got, and where the
/// damaged one went.
struct SalvageOutcome: Encodable {
    let salvagedEntries: Int
    let movedTo: String
}
