import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// What a prefix of the keyspace holds: its keys and memory by type and by TTL, with each
/// share's part of the memory as a bar; marked `≥` while the scan runs.
package struct BreakdownView: ReportView {
    /// The prefix (empty: the whole keyspace).
    package let prefix: Data
    /// The breakdown as last read.
    package var report: KeyspaceBreakdown?
    /// The first line shown.
    package var scroll = 0

    package static let title = "Keyspace breakdown"
    static let loadingText = "Reading the keys"

    /// The breakdown of `prefix`.
    init(prefix: Data) {
        self.prefix = prefix
    }

    package func breadcrumb(in context: ViewContext) -> String? {
        "breakdown of " + (prefix.isEmpty ? "all keys" : RedisKeyspace.text(of: prefix))
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [BreakdownRead] {
        [BreakdownRead(prefix: prefix)]
    }

    // MARK: What it shows

    private static func columns(_ title: String) -> [TableColumn] {
        [
            TableColumn(title: title, width: .flexible(minimum: 16, weight: 1)),
            TableColumn(title: "Keys", width: .fixed(12), alignment: .trailing),
            TableColumn(title: "Memory", width: .fixed(10), alignment: .trailing),
            TableColumn(title: "Of memory", width: .fixed(10), alignment: .trailing),
        ]
    }

    /// By type, then by TTL.
    func blocks(now: Int64) -> [ReportBlock] {
        guard let breakdown = report else { return [] }
        let mark = breakdown.scan.isComplete ? "" : "≥"
        let total = max(1, breakdown.bytes.value)
        func rows(_ shares: [KeyspaceBreakdown.Share]) -> [[TableCell]] {
            (shares + [breakdown.unlisted].compactMap { $0 }).map { share in
                let isUnlisted = share == breakdown.unlisted
                let approximate = isUnlisted ? "~" : mark
                return [
                    TableCell(share.name, CellStyle(isUnlisted ? .muted : .text)),
                    TableCell(approximate + Formatting.count(share.keys)),
                    TableCell(approximate + Formatting.bytes(share.bytes)),
                    TableCell(String(format: "%.1f%%", Double(share.bytes) / Double(total) * 100)),
                ]
            }
        }
        let name = breakdown.prefixText.isEmpty ? "All keys" : breakdown.prefixText
        let scanning = breakdown.scan.isComplete ? "" : " (≥ until the scan ends)"
        let summary =
            "\(name) · \(KeyspaceText.count(breakdown.keys)) \(breakdown.keys.value == 1 ? "key" : "keys") · "
            + KeyspaceText.bytes(breakdown.bytes) + scanning
        return [
            ReportBlock(title: summary + " · by type", columns: Self.columns("Type"), rows: rows(breakdown.types), empty: "No keys."),
            ReportBlock(title: "By time to live", columns: Self.columns("Expires"), rows: rows(breakdown.expiries), empty: "No keys."),
        ]
    }
}

/// The breakdown of a prefix.
package struct BreakdownRead: ConsoleRead {
    let prefix: Data

    package func run(on source: any ConsoleDataSource) throws -> KeyspaceBreakdown {
        try source.keyspaceBreakdown(prefix)
    }
}
