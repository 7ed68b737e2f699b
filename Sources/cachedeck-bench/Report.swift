import Foundation

/// What a row is held to: a maximum CacheCore / baseline time ratio, or nothing.
enum Budget {
    /// Time ratio at most `limit`; `label` states it the way docs/ARCHITECTURE.md does.
    case atMost(Double, label: String)
    /// CacheCore's own time per operation at most `nanoseconds` (the baseline is shown beside it).
    case absolute(nanoseconds: Double, label: String)
    case informational

    var label: String {
        switch self {
        case .atMost(_, let label), .absolute(_, let label): label
        case .informational: "—"
        }
    }
}

/// One line of the table: CacheCore's time per operation against the baseline's.
struct ReportRow {
    let operation: String
    let cacheCore: Double
    let baseline: Double
    let budget: Budget

    var ratio: Double { cacheCore / baseline }

    /// The row as a progress line.
    var progressLine: String {
        "  \(operation): \(Format.nanoseconds(cacheCore)) vs \(Format.nanoseconds(baseline)) ns/op"
    }

    var verdict: String {
        switch budget {
        case .atMost(let limit, _): ratio <= limit ? "PASS" : "FAIL"
        case .absolute(let limit, _): cacheCore <= limit ? "PASS" : "FAIL"
        case .informational: "info"
        }
    }
}

/// The benchmark's result: the table plus notes (rates, absolute times).
struct Report {
    private(set) var rows: [ReportRow] = []
    private(set) var notes: [String] = []

    mutating func add(_ row: ReportRow) { rows.append(row) }

    mutating func note(_ text: String) { notes.append(text) }

    /// The table, a summary of failed budgets, and the notes.
    func rendered() -> String {
        let header = ["operation", "CacheCore ns/op", "baseline ns/op", "ratio", "budget", "result"]
        let cells = rows.map { row in
            [
                row.operation, Format.nanoseconds(row.cacheCore), Format.nanoseconds(row.baseline),
                String(format: "%.2f×", row.ratio), row.budget.label, row.verdict,
            ]
        }
        var lines = [""] + Format.table(header: header, rows: cells, leftAligned: [0, 4])
        let failed = rows.filter { $0.verdict == "FAIL" }
        lines.append(
            failed.isEmpty
                ? "All budgets PASS."
                : "FAIL: \(failed.count) budget(s) missed: " + failed.map(\.operation).joined(separator: "; "))
        lines += notes.map { "  • " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension ReportRow {
    init(operation: String, times: Timing.Pair, budget: Budget) {
        self.init(operation: operation, cacheCore: times.cacheCore, baseline: times.baseline, budget: budget)
    }
}
