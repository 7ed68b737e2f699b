/// The bucket sizes of the file's telemetry and how long each is kept.
///
/// Counters are written in buckets of the first tier's resolution. Maintenance rolls
/// buckets older than a tier's ``Tier/keptFor`` into the next tier's (coarser) buckets,
/// which keeps every total, and deletes buckets of the last tier once they are older than
/// its ``Tier/keptFor``.
public struct TelemetryRetention: Sendable, Hashable {
    /// One bucket size and how long buckets of that size are kept.
    public struct Tier: Sendable, Hashable {
        /// The bucket size (whole milliseconds, at least one).
        public var resolution: Duration
        /// How long a bucket of this size is kept before it is rolled up (or deleted).
        public var keptFor: Duration

        /// Creates a tier.
        public init(resolution: Duration, keptFor: Duration) {
            self.resolution = resolution
            self.keptFor = keptFor
        }
    }

    /// The tiers, finest first.
    public let tiers: [Tier]

    /// Creates a retention from tiers, finest first. Each resolution must be a whole
    /// multiple of the one before; tiers that are not are dropped (and an empty list keeps
    /// 1-second buckets for an hour).
    public init(tiers: [Tier]) {
        var valid: [Tier] = []
        for tier in tiers where tier.resolution.milliseconds >= 1 && tier.keptFor > .zero {
            if let last = valid.last {
                let previous = last.resolution.milliseconds
                guard tier.resolution.milliseconds > previous, tier.resolution.milliseconds % previous == 0 else {
                    continue
                }
            }
            valid.append(tier)
        }
        self.tiers = valid.isEmpty ? [Tier(resolution: .seconds(1), keptFor: .seconds(3600))] : valid
    }

    /// 1-second buckets for an hour, 1-minute buckets for a day, 1-hour buckets for 30 days.
    public static let standard = TelemetryRetention(tiers: [
        Tier(resolution: .seconds(1), keptFor: .seconds(3600)),
        Tier(resolution: .seconds(60), keptFor: .seconds(24 * 3600)),
        Tier(resolution: .seconds(3600), keptFor: .seconds(30 * 24 * 3600)),
    ])

    /// The finest bucket size, in milliseconds: what counters are written in.
    var finestResolution: Int64 { tiers[0].resolution.milliseconds }
}
