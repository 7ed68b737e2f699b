import Foundation

/// How a walk of a keyspace (the keyspace scan, the store's census) shares each server with
/// its other clients: after each round trip, the walk's thread rests `idleShare / (1 -
/// idleShare)` of the time the round trip took, so the server is left alone `idleShare` of
/// the time; never more than a second (a server that answers slowly, or trickles its replies,
/// does not stall the walk three times as long).
struct ScanPacing: Sendable {
    /// The share of the time each server is left alone (0: none, at most 0.9).
    let idleShare: Double
    /// Rests the calling thread (`Thread.sleep`; tests record what is asked instead).
    private let rest: @Sendable (Duration) -> Void

    init(idleShare: Double, rest: @escaping @Sendable (Duration) -> Void = ScanPacing.sleep) {
        self.idleShare = min(0.9, max(0, idleShare))
        self.rest = rest
    }

    /// Runs `roundTrip` (one round trip's work on one server), then rests.
    func paced<T>(_ roundTrip: () throws -> T) rethrows -> T {
        let started = ContinuousClock.now
        defer {
            if let pause = pause(after: ContinuousClock.now - started) { rest(pause) }
        }
        return try roundTrip()
    }

    /// How long to rest after a round trip that took `busy` (`nil`: not at all).
    func pause(after busy: Duration) -> Duration? {
        guard idleShare > 0, busy > .zero else { return nil }
        return min(.seconds(1), busy * (idleShare / (1 - idleShare)))
    }

    static func sleep(_ duration: Duration) {
        Thread.sleep(forTimeInterval: Double(duration.nanosecondCount) / 1e9)
    }
}
