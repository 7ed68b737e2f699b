/// A stretch of recent time to graph, and the bucket size to graph it in.
public struct TelemetryWindow: Sendable, Hashable, Codable {
    /// How far back the window reaches from now, in milliseconds.
    public var durationMilliseconds: Int64
    /// The width of one point, in milliseconds.
    public var resolutionMilliseconds: Int64

    /// The most points a window holds; a finer resolution is coarsened to stay within it.
    public static let maximumPoints: Int64 = 10_000

    /// A window reaching `duration` back in points of `resolution` (at least 1 ms, at most
    /// the duration, and coarse enough for ``maximumPoints``).
    public init(duration: Duration, resolution: Duration) {
        let duration = max(duration.milliseconds, 1)
        let resolution = min(max(resolution.milliseconds, 1), duration)
        durationMilliseconds = duration
        resolutionMilliseconds = max(resolution, (duration + Self.maximumPoints - 1) / Self.maximumPoints)
    }

    /// The last 5 minutes in 5-second points (60).
    public static let fiveMinutes = TelemetryWindow(duration: .seconds(300), resolution: .seconds(5))
    /// The last hour in 1-minute points (60).
    public static let hour = TelemetryWindow(duration: .seconds(3600), resolution: .seconds(60))
    /// The last 24 hours in 30-minute points (48).
    public static let day = TelemetryWindow(duration: .seconds(24 * 3600), resolution: .seconds(1800))

    /// The number of points: the duration divided by the resolution, rounded up.
    public var pointCount: Int {
        Int((durationMilliseconds + resolutionMilliseconds - 1) / resolutionMilliseconds)
    }
}

/// Telemetry over a ``TelemetryWindow``, bucket by bucket, for graphs: hit rate, operations
/// and evictions per second.
public struct ActivitySeries: Sendable, Hashable, Codable {
    /// The namespace graphed, or `nil` for every namespace together.
    public var namespace: String?
    /// The window and its resolution.
    public var window: TelemetryWindow
    /// The time the window ends at (milliseconds since the epoch).
    public var now: Int64
    /// One point per bucket of the window's resolution, oldest first, none missing (a bucket
    /// without telemetry has zero counts and no hit rate). Buckets are aligned to multiples
    /// of the resolution since the epoch, so the last one is the bucket in progress: it
    /// ends at ``now`` and its rates are over its elapsed part.
    public var points: [Activity]
    /// Every point summed, as one span.
    public var total: Activity
}

extension TelemetryWindow {
    /// The start of the first point and the end of the last one for the window ending at
    /// `now` (milliseconds since the epoch): points are aligned to multiples of the
    /// resolution, and the last one is the bucket in progress at `now`.
    package func span(endingAt now: Int64) -> (first: Int64, end: Int64) {
        let width = resolutionMilliseconds
        let elapsed = ((now % width) + width) % width
        let lastStart = elapsed == 0 ? now - width : now - elapsed
        return (lastStart - Int64(pointCount - 1) * width, lastStart + width)
    }
}

extension ActivitySeries {
    /// The series of `window` ending at `now` from the counts of its points, oldest first
    /// (one per point of ``TelemetryWindow/span(endingAt:)``): each point's rates are over its
    /// elapsed part. Shared by ``Inspector`` and `RedisStoreInspector`.
    package init(namespace: String?, window: TelemetryWindow, now: Int64, slots: [CacheStatistics]) {
        let first = window.span(endingAt: now).first
        let width = window.resolutionMilliseconds
        let points = slots.enumerated().map { index, counts in
            let start = first + Int64(index) * width
            return Activity(start: start, duration: min(width, now - start), statistics: counts)
        }
        self.init(
            namespace: namespace, window: window, now: now, points: points,
            total: Activity(start: first, duration: now - first, statistics: slots.reduce(.zero, +)))
    }
}
