import Testing

@testable import CacheCore

@Suite struct MemoryTierTests {
    private func entry(
        _ key: String, _ value: Int, size: Int = 1, expiresAt: Int64? = nil, staleUntil: Int64? = nil,
        writtenAt: Int64 = 0
    ) -> TypedMemoryEntry<Int> {
        TypedMemoryEntry(
            value, key: key, writtenAt: writtenAt, expiresAt: expiresAt, staleUntil: staleUntil ?? expiresAt,
            size: size, tags: [])
    }

    @Test func theLeastRecentlyUsedEntryLeavesFirst() {
        let tier = MemoryTier(maxEntries: 3, maxBytes: nil)
        for key in ["a", "b", "c"] { tier.set(entry(key, 1)) }
        _ = tier.get("a", now: 0)
        #expect(tier.keysByRecency == ["a", "c", "b"])
        #expect(tier.set(entry("d", 1)) == 1)
        // Eviction gave the read "a" its second chance (moving it to the new end) and took "b".
        #expect(tier.keysByRecency == ["a", "d", "c"])
        #expect(tier.get("b", now: 0) == nil)
    }

    @Test func theByteLimitEvictsUntilTheNewEntryFits() {
        let tier = MemoryTier(maxEntries: 100, maxBytes: 10)
        tier.set(entry("a", 1, size: 4))
        tier.set(entry("b", 2, size: 4))
        #expect(tier.set(entry("c", 3, size: 5)) == 1)
        #expect(tier.bytes == 9)
        #expect(tier.keysByRecency == ["c", "b"])
        tier.set(entry("b", 2, size: 1))
        #expect(tier.bytes == 6)
    }

    @Test func expiredEntriesStayForStaleReadsUntilTheirWindowEnds() {
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        tier.set(entry("k", 7, expiresAt: 100, staleUntil: 200))
        #expect(tier.get("k", now: 99)?.isExpired(at: 99) == false)
        #expect(tier.get("k", now: 100)?.isExpired(at: 100) == true)
        #expect(tier.get("k", now: 200) == nil)
        #expect(tier.count == 0)
        tier.set(entry("live", 1, expiresAt: 50))
        tier.set(entry("forever", 1))
        #expect(tier.liveCount(at: 50) == 1)
    }

    @Test func aCopyFromTheFileLosesToAWriteThatRacedIt() {
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        let before = tier.epoch
        tier.set(entry("k", 2))
        tier.promote(entry("k", 1), ifUnchangedSince: before)
        #expect(tier.get("k", now: 0)?.value(as: Int.self) == 2)
        let now = tier.epoch
        tier.promote(entry("other", 3), ifUnchangedSince: now)
        #expect(tier.get("other", now: 0)?.value(as: Int.self) == 3)
    }

    @Test func replacedCopiesAreDroppedAndCurrentOnesKept() {
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        tier.set(entry("k", 1, writtenAt: 10))
        #expect(!tier.dropIfReplaced("k", writtenAt: 10))
        #expect(tier.dropIfReplaced("k", writtenAt: 11))
        #expect(tier.count == 0)
    }

    @Test func aValueOfAnotherTypeIsNotReturned() {
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        tier.set(entry("k", 1))
        #expect(tier.get("k", now: 0)?.value(as: String.self) == nil)
    }

    @Test func aReadEntryOutlivesEveryUnreadOneButOnlyOnce() {
        let tier = MemoryTier(maxEntries: 4, maxBytes: nil)
        for key in ["a", "b", "c", "d"] { tier.set(entry(key, 1)) }
        _ = tier.get("a", now: 0)
        _ = tier.get("c", now: 0)
        #expect(tier.set(entry("e", 1)) == 1)
        #expect(tier.set(entry("f", 1)) == 1)
        #expect(Set(tier.keysByRecency) == ["a", "c", "e", "f"])
        // Eviction moved "a" and "c" to the new end without their marks: unread since, they
        // go in turn like any entry ("e" was older than "a" there).
        tier.set(entry("g", 1))
        tier.set(entry("h", 1))
        #expect(tier.keysByRecency == ["h", "g", "c", "f"])
    }

    @Test func aNewEntryIsNotEvictedByItsOwnInsertionWhileOthersCanGo() {
        let tier = MemoryTier(maxEntries: 2, maxBytes: nil)
        tier.set(entry("a", 1))
        tier.set(entry("b", 1))
        _ = tier.get("a", now: 0)
        _ = tier.get("b", now: 0)
        #expect(tier.set(entry("c", 1)) == 1)
        #expect(tier.get("c", now: 0) != nil)
        #expect(tier.count == 2)
        // An entry larger than the byte limit on its own still leaves.
        let small = MemoryTier(maxEntries: 10, maxBytes: 5)
        small.set(entry("x", 1, size: 2))
        #expect(small.set(entry("huge", 1, size: 6)) == 2)
        #expect(small.count == 0)
    }

    @Test func hitsMarkEntriesForEvictionLikeOtherReads() {
        let tier = MemoryTier(maxEntries: 2, maxBytes: nil)
        tier.set(entry("a", 1))
        tier.set(entry("b", 2))
        #expect(tier.hit("a", as: Int.self, maxAge: nil, clock: ManualClock()) == 1)
        tier.set(entry("c", 3))
        #expect(tier.keysByRecency == ["a", "c"])
    }

    @Test func aHitReadsTheClockOnlyForAnEntryThatExpiresOrAMaxAge() {
        let clock = CountingClock(now: 100)
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        tier.set(entry("forever", 1, writtenAt: 50))
        tier.set(entry("expiring", 2, expiresAt: 150, writtenAt: 50))
        #expect(tier.hit("forever", as: Int.self, maxAge: nil, clock: clock) == 1)
        #expect(clock.reads == 0)
        #expect(tier.hit("expiring", as: Int.self, maxAge: nil, clock: clock) == 2)
        #expect(clock.reads == 1)
        #expect(tier.hit("forever", as: Int.self, maxAge: 51, clock: clock) == 1)
        #expect(tier.hit("forever", as: Int.self, maxAge: 50, clock: clock) == nil)
        #expect(clock.reads == 3)
        clock.now = 150
        #expect(tier.hit("expiring", as: Int.self, maxAge: nil, clock: clock) == nil)
        #expect(tier.hit("forever", as: String.self, maxAge: nil, clock: clock) == nil)
        #expect(tier.hit("missing", as: Int.self, maxAge: nil, clock: clock) == nil)
    }

    @Test func aKeyRewrittenAsAnotherTypeIsHeldOnceAsTheNewOne() {
        let tier = MemoryTier(maxEntries: 2, maxBytes: nil)
        let clock = ManualClock()
        tier.set(entry("k", 1))
        tier.set(TypedMemoryEntry("one", key: "k", writtenAt: 0, expiresAt: nil, staleUntil: nil, size: 1, tags: []))
        #expect(tier.count == 1)
        #expect(tier.hit("k", as: Int.self, maxAge: nil, clock: clock) == nil)
        #expect(tier.hit("k", as: String.self, maxAge: nil, clock: clock) == "one")
        tier.set(entry("a", 1))
        #expect(tier.set(entry("b", 1)) == 1)
        // Eviction runs across types: the read "k" got its second chance and "a" left.
        #expect(tier.keysByRecency == ["k", "b"])
        #expect(tier.removeAll { _ in true } == 2)
        #expect(tier.hit("k", as: String.self, maxAge: nil, clock: clock) == nil)
        #expect(tier.count == 0 && tier.bytes == 0)
    }

    @Test func everyReadIsTakenOnceWhetherItsEntryStaysChangesOrLeaves() {
        let tier = MemoryTier(maxEntries: 3, maxBytes: nil)
        let clock = ManualClock()
        for key in ["a", "b", "c"] { tier.set(entry(key, 1)) }
        for _ in 0..<3 { _ = tier.hit("a", as: Int.self, maxAge: nil, clock: clock) }
        _ = tier.get("b", now: 0, counting: true)
        _ = tier.get("c", now: 0)  // not counted
        // An overwrite keeps the reads; a change of type and a removal hand them over as departed.
        tier.set(entry("a", 2))
        _ = tier.hit("a", as: Int.self, maxAge: nil, clock: clock)
        _ = tier.hit("b", as: Int.self, maxAge: nil, clock: clock)
        tier.set(TypedMemoryEntry("two", key: "b", writtenAt: 0, expiresAt: nil, staleUntil: nil, size: 1, tags: []))
        _ = tier.hit("b", as: String.self, maxAge: nil, clock: clock)
        _ = tier.hit("c", as: Int.self, maxAge: nil, clock: clock)
        tier.remove("c")
        tier.set(entry("d", 1))  // takes the slot "c" left, unread
        let taken = Dictionary(tier.takeReads().map { ($0.key, $0.hits) }, uniquingKeysWith: +)
        #expect(taken == ["a": 4, "b": 3, "c": 1])
        #expect(tier.takeReads().isEmpty)
        _ = tier.hit("d", as: Int.self, maxAge: nil, clock: clock)
        #expect(tier.takeReads().map(\.key) == ["d"])
    }

    @Test func aTierWhoseReadsNobodyTakesKeepsItsReadLogBounded() {
        let tier = MemoryTier(maxEntries: 10, maxBytes: nil)
        let clock = ManualClock()
        for _ in 0..<10_000 { _ = tier.hit("k", as: Int.self, maxAge: nil, clock: clock) }  // misses log nothing
        tier.set(entry("k", 1))
        for _ in 0..<10_000 { _ = tier.hit("k", as: Int.self, maxAge: nil, clock: clock) }
        #expect(tier.state.withLock { $0.readLog.count } < 4096)
        #expect(tier.takeReads().map(\.hits) == [10_000])
    }
}

/// A clock that counts how often it is read.
private final class CountingClock: CacheClock, @unchecked Sendable {
    var now: Int64
    private(set) var reads = 0

    init(now: Int64) { self.now = now }

    func nowMilliseconds() -> Int64 {
        reads += 1
        return now
    }
}
