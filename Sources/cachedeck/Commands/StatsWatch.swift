import CacheConsole
import CacheCore
import Foundation

/// `stats --watch`: a line per interval of whole, ended seconds until Ctrl-C. Apps write
/// their telemetry about once a second, not on the second, so one second's bucket holds none,
/// one or two writes: each line's rates are over the last ``smoothing`` seconds (or the
/// interval, if longer), which steadies them.
struct StatsWatch {
    let inspector: Inspector
    let namespace: String?
    let json: Bool

    /// Lines between repeated headers.
    private static let headerEvery = 20
    /// How long after a second ends its telemetry is read (apps write theirs once a second).
    private static let settle: Int64 = 500
    /// The shortest span a line's rates are measured over, in milliseconds.
    static let smoothing: Int64 = 5_000

    /// `stats --watch --json`: one line per interval.
    struct Line: Encodable {
        let namespace: String?
        let activity: Activity
        let liveProcesses: Int
    }

    func run(interval: Int, count: Int?) throws {
        let interruption = Interruption()
        let step = Int64(interval) * 1000
        let clock = SystemClock()
        var end = (clock.nowMilliseconds() - Self.settle) / 1000 * 1000
        var printed = 0
        while !interruption.happened {
            let activity = try inspector.activity(
                namespace: namespace, from: end - max(step, Self.smoothing), until: end)
            let live = try inspector.processes().filter(\.isLive).count
            if json {
                try JSONOutput.printLine(Line(namespace: namespace, activity: activity, liveProcesses: live))
            } else {
                let text = line(activity, live: live, header: printed % Self.headerEvery == 0)
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
            }
            printed += 1
            if let count, printed >= count { return }
            end += step
            while clock.nowMilliseconds() < end + Self.settle && !interruption.happened { usleep(20_000) }
        }
    }

    /// The columns and their widths; every column but the time aligns right.
    private static let columns = [
        ("time", 8), ("hits/s", 10), ("misses/s", 10), ("hit rate", 9), ("sets/s", 10), ("evictions/s", 12),
        ("expirations/s", 14), ("live", 5),
    ]

    private func line(_ activity: Activity, live: Int, header: Bool) -> String {
        let rate = { (count: Int) in Figures.rate(activity.perSecond(count)) }
        let cells = [
            Self.clockTime(activity.end), rate(activity.hits), rate(activity.misses + activity.staleHits),
            TimeText.percent(activity.hitRate), rate(activity.sets), rate(activity.evictions),
            rate(activity.expirations), "\(live)",
        ]
        let values = Self.row(cells)
        return header ? Self.row(Self.columns.map(\.0)) + "\n" + values : values
    }

    private static func row(_ cells: [String]) -> String {
        zip(cells, columns).enumerated().map { index, pair in
            let (cell, (_, width)) = pair
            let padding = String(repeating: " ", count: max(0, width - cell.count))
            return index == 0 ? cell + padding : padding + cell
        }.joined(separator: " ")
    }

    /// `21:50:01`, local time.
    private static func clockTime(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
