import Foundation
import Testing

@testable import CacheCore

@Suite struct InspectorTimelineTests {
    static let second: Int64 = 1000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Expiry offsets from now at each bucket's edges, with the bucket and hour they fall in.
    static let edges: [(offset: Int64?, kind: ExpiryBucketKind, hour: Int?)] = [
        (-5 * second, .expired, nil),
        (0, .expired, nil),
        (1, .withinMinute, 0),
        (60 * second - 1, .withinMinute, 0),
        (60 * second, .withinFiveMinutes, 0),
        (300 * second - 1, .withinFiveMinutes, 0),
        (300 * second, .withinHour, 0),
        (hour - 1, .withinHour, 0),
        (hour, .withinDay, 1),
        (day - 1, .withinDay, 23),
        (day, .withinWeek, 24),
        (48 * hour - 1, .withinWeek, 47),
        (48 * hour, .withinWeek, nil),
        (7 * day - 1, .withinWeek, nil),
        (7 * day, .later, nil),
        (Int64.max - 1_700_000_000_000, .later, nil),
        (nil, .never, nil),
    ]

    /// One entry per edge in `n`, sized by its position (``size(_:)``), and two in `m`.
    /// Key plus value bytes of edge `index`'s entry.
    static func size(_ index: Int) -> Int64 { Int64(9 + index + String(index).utf8.count) }

    static func fixture() throws -> TestStore {
        let fixture = try TestStore()
        let now = fixture.clock.nowMilliseconds()
        let cache = try fixture.store.dataCache("n", key: Int.self)
        for (index, edge) in edges.enumerated() {
            try cache.set(Data(count: 9 + index), for: index, expiration: .never)
            if let offset = edge.offset {
                try fixture.execute("UPDATE entries SET expires_at = \(now + offset) WHERE key = '\(index)'")
            }
        }
        let other = try fixture.store.dataCache("m", key: Int.self)
        try other.set(Data(count: 99), for: 1, expiration: .after(.milliseconds(1)))
        try other.set(Data(count: 99), for: 2, expiration: .never)
        return fixture
    }

    @Test func bucketsSplitExactlyAtTheirEdges() throws {
        let fixture = try Self.fixture()
        let timeline = try fixture.inspectionStore().inspector.expiryTimeline(namespace: "n")
        let now = fixture.clock.nowMilliseconds()
        #expect(timeline.now == now && timeline.namespace == "n")
        #expect(timeline.buckets.map(\.kind) == ExpiryBucketKind.allCases)
        for bucket in timeline.buckets {
            let members = Self.edges.indices.filter { Self.edges[$0].kind == bucket.kind }
            #expect(bucket.entries == members.count, "\(bucket.kind)")
            #expect(bucket.bytes == members.map(Self.size).reduce(0, +), "\(bucket.kind)")
        }
        #expect(timeline.hourly.count == 48)
        for hour in timeline.hourly {
            let members = Self.edges.indices.filter { Self.edges[$0].hour == hour.hour }
            #expect(hour.entries == members.count, "hour \(hour.hour)")
            #expect(hour.bytes == members.map(Self.size).reduce(0, +), "hour \(hour.hour)")
        }
    }

    @Test func bucketAndHourBoundsDescribeTheirRanges() throws {
        let fixture = try Self.fixture()
        let now = fixture.clock.nowMilliseconds()
        let timeline = try fixture.store.inspector.expiryTimeline()
        let bounds = timeline.buckets.map { [$0.from, $0.until] }
        #expect(
            bounds == [
                [nil, now + 1], [now + 1, now + 60_000], [now + 60_000, now + 300_000],
                [now + 300_000, now + Self.hour],
                [now + Self.hour, now + Self.day], [now + Self.day, now + 7 * Self.day], [now + 7 * Self.day, nil],
                [nil, nil],
            ])
        #expect(timeline.hourly[0].from == now + 1 && timeline.hourly[0].until == now + Self.hour)
        #expect(timeline.hourly[47].from == now + 47 * Self.hour && timeline.hourly[47].until == now + 48 * Self.hour)
    }

    @Test func theWholeStoreAddsUpItsNamespacesAndMovesWithTheClock() throws {
        let fixture = try Self.fixture()
        let inspector = fixture.store.inspector
        let store = try inspector.expiryTimeline()
        let n = try inspector.expiryTimeline(namespace: "n")
        #expect(store.namespace == nil)
        #expect(store.buckets.map(\.entries).reduce(0, +) == Self.edges.count + 2)
        #expect(store.buckets[1].entries == n.buckets[1].entries + 1, "m's entry expires in a millisecond")
        #expect(store.buckets[7].entries == n.buckets[7].entries + 1)
        fixture.clock.advance(by: .milliseconds(1))
        let later = try inspector.expiryTimeline()
        #expect(later.buckets[0].entries == store.buckets[0].entries + 2, "now >= expiresAt has expired")
        #expect(throws: InspectorError.noSuchNamespace("x")) { try inspector.expiryTimeline(namespace: "x") }
    }

    @Test func largeRangesSumTheirBytesExactly() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: Int.self)
        let count = 20_000
        try cache.set(
            (0..<count).map { (key: $0 + 100_000, value: Data(count: 94 + $0 % 7)) },
            expiration: .after(.seconds(7200)))
        try cache.set(Data(count: 994), for: 1, expiration: .after(.seconds(10)))
        let timeline = try fixture.store.inspector.expiryTimeline(namespace: "n")
        let hour2 = timeline.hourly[2]
        let exact = (0..<count).reduce(Int64(0)) { $0 + Int64(6 + 94 + $1 % 7) }
        #expect(hour2.entries == count && hour2.bytes == exact)
        #expect(timeline.buckets[4].bytes == exact, "the day's bucket holds that hour")
        let minute = timeline.buckets[1]
        #expect(minute.entries == 1 && minute.bytes == 995)
    }
}
