import CacheCore
import Foundation

/// A simulated app on the demo cache: skewed reads through loaders (a few hot keys get most
/// of the traffic), writes, planner events that fire dependency rules, mail arriving into
/// capped mailboxes, and an origin that fails now and then so stale-if-error shows.
struct DemoWorkload {
    let store: any CacheStoring
    /// Operations per second to aim for.
    let rate: Int
    /// Where the stores differ (mailboxes).
    var policies = DemoPolicies.file
    var random = DemoRandom(seed: 0x11FE)

    struct OriginDown: Error {}

    /// Runs until `shouldStop` says so; prints a line every `reportEvery` operations.
    mutating func run(shouldStop: () -> Bool, report: (String) -> Void) async throws {
        let parts = try store.entities(LegoPart.self)
        let sets = try store.entities(LegoSet.self)
        let tiles = try store.dataCache("tiles", key: String.self, policy: .default)
        let planner = try store.cache("planner", key: String.self, value: GuestList.self, policy: .shortTerm)
        let partCount = 30_000
        let setCount = 20_000
        var operations = 0
        var failures = 0
        let started = ContinuousClock.now
        while !shouldStop() {
            let choice = random.next() % 100
            let failing = random.next() % 100 < 4
            switch choice {
            case 0..<45:
                let number = "\(3001 + random.skewed(partCount * 2))"
                do {
                    _ = try await parts.value(for: number) { key in
                        if failing { throw OriginDown() }
                        return LegoPart(
                            number: key, name: "Loaded \(key)", category: "Bricks", colorIDs: [1],
                            dimensions: [1, 2, 1])
                    }
                } catch { failures += 1 }
            case 45..<75:
                let number = "\(10000 + random.skewed(setCount * 2))-1"
                do {
                    _ = try await sets.read(number, refreshAfter: .seconds(3600)) { key in
                        if failing { throw OriginDown() }
                        return LegoSet(
                            number: key, name: "Loaded \(key)", year: 2026, themeID: 1, pieces: 10, inventory: [:])
                    }
                } catch { failures += 1 }
            case 75..<90:
                let index = random.skewed(28_000 * 2)
                let key = "\(3 + index % 15)/\(index / 7)/\(index % 997)"
                if try tiles.get(key) == nil {
                    try tiles.set(
                        random.tile(size: 300 + Int(random.next() % 3500)), for: key, tags: ["zoom:\(3 + index % 15)"])
                }
            case 90..<96:
                let account = Int(random.next() % UInt64(DemoBuilder.accounts))
                let mailbox = try store.cache(
                    DemoBuilder.mailbox(account), key: Int.self, value: MailMessage.self, policy: policies.mailbox)
                let id = 1_000_000 + operations
                try mailbox.set(
                    MailMessage(id: id, from: "live@example.com", subject: "Live \(id)", body: "…", receivedAt: Date()),
                    for: id)
            default:
                let tenant = random.skewed(DemoBuilder.tenants)
                try store.invalidate(event: "guestCreated", parameters: ["tenant": "\(tenant)"])
                try planner.set(
                    GuestList(tenant: "\(tenant)", guests: [random.word().capitalized]), for: "guests_\(tenant)",
                    tags: ["tenant:\(tenant)"])
            }
            operations += 1
            if operations % max(1, rate) == 0 {
                let elapsed = (ContinuousClock.now - started).seconds
                report("\(operations) operations in \(Int(elapsed)) s (\(failures) loads failed and fell back)")
            }
            let due = Duration.seconds(Double(operations) / Double(max(1, rate)))
            let ahead = due - (ContinuousClock.now - started)
            if ahead > .milliseconds(5) { try await Task.sleep(for: ahead) }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
