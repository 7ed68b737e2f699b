import CacheCore
import CacheCoreRedis
import Foundation

/// Builds the demo cache: a LEGO catalog (colors never expire, themes 30 days, parts 7 days,
/// sets 1 day), a multi-tenant planner with dependency rules, map tiles with a 24 h TTL and
/// mailboxes capped at the newest 1,000 messages per account — about 100k entries — in a
/// cache file or a RedisStore (where `policies` say how the two differ).
struct DemoBuilder {
    let store: any CacheStoring
    /// 1.0 builds about 100k entries.
    let scale: Double
    /// Where the stores differ (mailboxes).
    var policies = DemoPolicies.file
    var random = DemoRandom(seed: 0xDEC4)

    static let tenants = 200
    static let accounts = 20

    /// Every namespace the demo writes.
    static var namespaces: [String] {
        [LegoColor.cacheNamespace, LegoTheme.cacheNamespace, LegoPart.cacheNamespace, LegoSet.cacheNamespace]
            + ["planner", "tiles"] + (0..<accounts).map(mailbox(_:))
    }

    /// The namespace of `account`'s mailbox.
    static func mailbox(_ account: Int) -> String { "mailbox_\(account)" }

    /// The planner's dependency rules and domain events (also used by the live workload).
    static var rules: InvalidationRules {
        var rules = InvalidationRules()
        rules.rule(
            when: .key(namespace: "planner", key: "guests_{tenant}"),
            invalidate: [
                .key(namespace: "planner", key: "guest_stats_{tenant}"),
                .key(namespace: "planner", key: "guest_count_{tenant}"),
                .key(namespace: "planner", key: "seating_chart_{tenant}"),
            ])
        rules.event("guestCreated", invalidates: [.key(namespace: "planner", key: "guests_{tenant}")])
        rules.event("tenantDeleted", invalidates: [.tag("tenant:{tenant}", namespace: "planner")])
        return rules
    }

    func count(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

    /// Writes everything; returns the number of entries written.
    mutating func build(progress: (String) -> Void) throws -> Int {
        var written = 0
        written += try buildCatalog(progress: progress)
        written += try buildPlanner()
        progress("planner: \(Self.tenants) tenants")
        written += try buildTiles()
        progress("tiles written")
        written += try buildMailboxes()
        progress("mailboxes written")
        try store.flush()
        return written
    }

    private mutating func buildCatalog(progress: (String) -> Void) throws -> Int {
        let colors = try store.entities(LegoColor.self)
        let shades = ["Red", "Blue", "Tan", "Gray", "Green"]
        var palette: [LegoColor] = []
        for id in 0..<180 {
            let rgb = String(format: "%06X", Int(random.next() % 0xFFFFFF))
            palette.append(
                LegoColor(
                    id: id, name: random.word().capitalized + " " + shades[id % 5], rgb: rgb,
                    isTransparent: id % 17 == 0))
        }
        try colors.put(palette)
        let themes = try store.entities(LegoTheme.self)
        var themeList: [LegoTheme] = []
        for id in 0..<450 {
            themeList.append(LegoTheme(id: id, name: random.word().capitalized, parentID: id < 40 ? nil : id % 40))
        }
        try themes.put(themeList)
        progress("colors and themes written")

        let parts = try store.entities(LegoPart.self)
        let partCount = count(30_000)
        let kinds = ["Brick", "Plate", "Tile"]
        let categories = ["Bricks", "Plates", "Technic", "Minifig"]
        for start in stride(from: 0, to: partCount, by: 1000) {
            var batch: [LegoPart] = []
            for index in start..<min(start + 1000, partCount) {
                let colorCount = Int(random.next() % 12)
                var colorIDs: [Int] = []
                for _ in 0..<colorCount { colorIDs.append(Int(random.next() % 180)) }
                let name = random.word().capitalized + " " + kinds[index % 3]
                batch.append(
                    LegoPart(
                        number: String(3001 + index), name: name, category: categories[index % 4],
                        colorIDs: colorIDs, dimensions: [1, Double(1 + index % 8), Double(index % 3) / 3]))
            }
            try parts.put(batch, tags: ["category:" + categories[start / 1000 % 4].lowercased()])
        }
        progress("parts: \(partCount)")

        let sets = try store.entities(LegoSet.self)
        let setCount = count(20_000)
        for index in 0..<setCount {
            var inventory: [String: Int] = [:]
            for item in 0..<Int(2 + random.next() % 40) { inventory[String(3001 + item * 7)] = item + 1 }
            let name = random.word().capitalized + " " + random.word().capitalized
            let set = LegoSet(
                number: "\(10000 + index)-1", name: name, year: 1980 + index % 45, themeID: index % 450,
                pieces: Int(random.next() % 4000), inventory: inventory)
            // Spread expiry over the next day (a few already past) so every timeline bucket has entries.
            let seconds = Double(random.next() % 86_400) - (index % 50 == 0 ? 90_000 : 0)
            try sets.put(set, expiration: .at(Date().addingTimeInterval(seconds)), tags: ["year:\(set.year)"])
        }
        progress("sets: \(setCount)")
        return palette.count + 450 + partCount + setCount
    }

    private mutating func buildPlanner() throws -> Int {
        let planner = try store.cache("planner", key: String.self, value: GuestList.self, policy: .shortTerm)
        let counts = try store.cache("planner", key: String.self, value: Int.self, policy: .shortTerm)
        for tenant in 0..<Self.tenants {
            let guests = (0..<Int(random.next() % 60)).map { _ in random.word().capitalized }
            let tags = ["tenant:\(tenant)"]
            try planner.set(GuestList(tenant: "\(tenant)", guests: guests), for: "guests_\(tenant)", tags: tags)
            try planner.set(
                GuestList(tenant: "\(tenant)", guests: guests.sorted()), for: "seating_chart_\(tenant)", tags: tags)
            try counts.set(guests.count, for: "guest_count_\(tenant)", tags: tags)
            try counts.set(guests.count * 3, for: "guest_stats_\(tenant)", tags: tags)
        }
        return Self.tenants * 4
    }

    private mutating func buildTiles() throws -> Int {
        let tiles = try store.dataCache("tiles", key: String.self, policy: .default)
        let tileCount = count(28_000)
        var written = 0
        while written < tileCount {
            let batch = (written..<min(written + 500, tileCount)).map { index in
                let zoom = 3 + index % 15
                let size = 300 + Int(random.next() % 3500)
                return (key: "\(zoom)/\(index / 7)/\(index % 997)", value: random.tile(size: size))
            }
            try tiles.set(batch, tags: ["zoom:\(3 + written % 15)"])
            written += batch.count
        }
        return tileCount
    }

    private mutating func buildMailboxes() throws -> Int {
        var written = 0
        for account in 0..<Self.accounts {
            let mailbox = try store.cache(
                Self.mailbox(account), key: Int.self, value: MailMessage.self, policy: policies.mailbox)
            let messages = count(1_100)
            for start in stride(from: 0, to: messages, by: 500) {
                try mailbox.set(
                    (start..<min(start + 500, messages)).map { id in
                        (
                            key: id,
                            value: MailMessage(
                                id: id, from: "\(random.word())@example.com", subject: random.word().capitalized,
                                body: String(repeating: "\(random.word()) ", count: 5 + Int(random.next() % 80)),
                                receivedAt: Date())
                        )
                    })
            }
            written += min(messages, policies.mailboxCap ?? messages)
        }
        return written
    }
}
