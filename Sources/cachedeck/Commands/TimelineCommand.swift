import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import ForeignCaches

/// `cachedeck timeline FILE|URL [NAMESPACE]`
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show when entries expire: counts and bytes by range, and the next 48 hours hour by hour.",
        discussion: """
            Counts and bytes are exact: summed from the expiry index of a file, or from a census of a             RedisStore's entries (SCAN of every primary, run to completion).
            """)

    @OptionGroup var store: StoreArguments
    @Argument(help: "Only this namespace (default: all).") var namespace: String?
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignReads.recognise(store.file, json: output.json) {
            return try foreign.timeline(namespace: namespace)
        }
        let timeline: ExpiryTimeline
        if let inspector = try redis.inspector(for: store.file) {
            let census = inspector.census()
            try census.finish()
            timeline = try census.expiryTimeline(namespace: namespace)
        } else {
            timeline = try store.openForReading().inspector.expiryTimeline(namespace: namespace)
        }
        if output.json { return try JSONOutput.print(timeline) }
        print("Expiry of \(namespace.map { "namespace \($0)" } ?? "all namespaces")")
        print()
        print(
            Table(
                headers: ["expires", "entries", "bytes"],
                rows: timeline.buckets.map { bucket in
                    [
                        Self.label(bucket.kind), Formatting.count(bucket.entries),
                        Formatting.bytes(Int(clamping: bucket.bytes)),
                    ]
                }
            ).rendered)
        print()
        print("Next 48 hours, entries expiring per hour")
        let largest = timeline.hourly.map(\.entries).max() ?? 0
        let rows = timeline.hourly.map { hour in
            [
                "+\(hour.hour)h", BarChart.bar(hour.entries, of: largest, width: 40), Formatting.count(hour.entries),
                Formatting.bytes(Int(clamping: hour.bytes)),
            ]
        }
        print(Table(headers: ["hour", "", "entries", "bytes"], rows: rows).rendered)
    }

    static func label(_ kind: ExpiryBucketKind) -> String {
        switch kind {
        case .expired: "expired (not swept)"
        case .withinMinute: "within a minute"
        case .withinFiveMinutes: "in 1–5 minutes"
        case .withinHour: "in 5–60 minutes"
        case .withinDay: "in 1–24 hours"
        case .withinWeek: "in 1–7 days"
        case .later: "after 7 days"
        case .never: "never"
        }
    }
}
