/// Whether a measured figure meets its goal.
enum Verdict: String {
    case pass = "PASS"
    case fail = "FAIL"
    case info

    init(_ met: Bool) { self = met ? .pass : .fail }
}

/// One line of the `format` table: what was measured, the figure, its goal and the verdict.
struct GoalRow {
    let measure: String
    let figure: String
    let goal: String
    let verdict: Verdict
}

/// The `format` table and its notes.
struct GoalReport {
    private(set) var rows: [GoalRow] = []
    private(set) var notes: [String] = []

    mutating func add(_ row: GoalRow) { rows.append(row) }

    mutating func note(_ text: String) { notes.append(text) }

    /// The table, a summary of missed goals, and the notes.
    func rendered() -> String {
        let cells = rows.map { [$0.measure, $0.figure, $0.goal, $0.verdict.rawValue] }
        var lines =
            [""] + Format.table(header: ["measure", "figure", "goal", "result"], rows: cells, leftAligned: [0, 1, 2])
        let failed = rows.filter { $0.verdict == .fail }
        lines.append(
            failed.isEmpty
                ? "All goals PASS."
                : "FAIL: \(failed.count) of \(rows.filter { $0.verdict != .info }.count) goals missed.")
        lines += notes.map { "  • " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension Format {
    /// `10,000/10,000/10,000`: counts that should all be equal, the expected one first.
    static func agreement(_ counts: Int...) -> String { counts.map(grouped).joined(separator: "/") }
}
