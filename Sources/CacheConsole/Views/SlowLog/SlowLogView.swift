import TerminalUI
import CacheCore
import CacheCoreRedis

/// Each Redis node's slow log (`SLOWLOG GET`, newest first) and latest latency spikes
/// (`LATENCY LATEST`), read-only; a node that cannot be read says why. Refreshed with the
/// console.
package struct SlowLogView: ReportView {
    /// Every node's log as last read.
    package var report: [RedisNodeLatency]?
    /// The first line shown.
    package var scroll = 0

    /// The newest entries read per node.
    static let entriesPerNode = 128

    package static let title = "Slow log and latency (Redis, read-only)"
    static let loadingText = "Reading the slow logs"

    package static let tab: ViewTab? = ViewTab(
        action: .showSlowLog, label: "Slow log", help: "Redis slow log and latency spikes of every node",
        isOnBar: false)

    /// A slow-log view; `nil` (close it) when one is on top.
    package static func opened(from context: ViewContext) -> SlowLogView? {
        context.model.current.view is SlowLogView ? nil : SlowLogView()
    }

    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? { "slow log" }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [SlowLogRead] {
        [SlowLogRead(count: Self.entriesPerNode)]
    }

    // MARK: What it shows

    private static let slowColumns = [
        TableColumn(title: "Id", width: .fixed(7), alignment: .trailing),
        TableColumn(title: "When", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "Took", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "Command", width: .flexible(minimum: 20, weight: 3)),
        TableColumn(title: "Client", width: .flexible(minimum: 10, weight: 1)),
    ]

    private static let latencyColumns = [
        TableColumn(title: "Event", width: .flexible(minimum: 14, weight: 1)),
        TableColumn(title: "When", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "Latest", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "Max", width: .fixed(9), alignment: .trailing),
    ]

    /// Per node: its slow log, then its latency events.
    func blocks(now: Int64) -> [ReportBlock] {
        (report ?? []).flatMap { node -> [ReportBlock] in
            let title = "\(node.node) (\(node.role))"
            if let failure = node.failure {
                return [
                    ReportBlock(
                        title: title, titleStyle: CellStyle(.bad), columns: [], rows: [],
                        empty: "Cannot read: \(failure)")
                ]
            }
            let kept = node.slowLogLength.map { " of \(Formatting.count($0)) kept" } ?? ""
            return [
                ReportBlock(
                    title: "\(title) · slow log, newest \(Formatting.count(node.slowLog.count))\(kept)",
                    columns: Self.slowColumns,
                    rows: node.slowLog.map { entry in
                        [
                            TableCell(String(entry.id)),
                            TableCell(TimeText.ago(entry.startedAt.multipliedClamped(by: 1000), now: now)),
                            TableCell(KeyspaceText.duration(microseconds: entry.microseconds)),
                            TableCell(entry.command), TableCell(entry.client, CellStyle(.muted)),
                        ]
                    }, empty: "No slow commands logged."),
                ReportBlock(
                    title: "\(title) · latency spikes", columns: Self.latencyColumns,
                    rows: node.latency.map { event in
                        [
                            TableCell(event.event),
                            TableCell(TimeText.ago(event.latestAt.multipliedClamped(by: 1000), now: now)),
                            TableCell("\(Formatting.count(Int(clamping: event.latestMilliseconds))) ms"),
                            TableCell("\(Formatting.count(Int(clamping: event.maxMilliseconds))) ms"),
                        ]
                    },
                    empty: "None recorded (the latency monitor is off while latency-monitor-threshold is 0)."),
            ]
        }
    }
}

/// Every node's slow log and latency.
package struct SlowLogRead: ConsoleRead {
    let count: Int

    package func run(on source: any ConsoleDataSource) throws -> [RedisNodeLatency] { try source.latency(count: count) }
}
