import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// An explicit sweep removes every expired entry unless told to keep the stale window, and
/// other store instances' memory tiers drop what it removed.
@Suite struct StaleWindowSweepTests {
    private let policy = NamespacePolicy.hybrid.expiring(.after(.seconds(60))).staleWindow(.seconds(3600))

    /// `past` expired two hours ago (past its stale window), `recent` a minute ago, `live` not.
    private func sessions(_ fixture: TestStore) throws -> Cache<String, String> {
        let cache = try fixture.store.cache("sessions", key: String.self, value: String.self, policy: policy)
        try cache.set("p", for: "past")
        fixture.clock.advance(by: .seconds(7200))
        try cache.set("r", for: "recent")
        try cache.set("l", for: "live", expiration: .never)
        fixture.clock.advance(by: .seconds(120))
        return cache
    }

    @Test func anAdminSweepKeepsTheStaleWindowOnlyWhenTold() throws {
        let fixture = try TestStore()
        let cache = try sessions(fixture)
        let admin = fixture.store.admin
        let keeping = AdminTarget.sweep(namespace: "sessions", keepingStaleWindow: true)
        #expect(try admin.preview(keeping).entries == 1)
        let kept = try admin.run(keeping)
        #expect(kept.removed == 1)
        #expect(try cache.getStale("recent")?.value == "r" && cache.getStale("past") == nil)
        #expect(try admin.auditRecord(kept.auditID)?.target == keeping)
        #expect(keeping.description == "sweep sessions, keeping the stale window")
        #expect(try admin.preview(.sweep(namespace: "sessions")).entries == 1)
        #expect(try admin.run(.sweep(namespace: nil)).removed == 1)
        #expect(try cache.getStale("recent") == nil && cache.get("live") == "l")
    }

    /// Audit rows written before the parameter existed read as the sweep they were.
    @Test func theAuditJSONCarriesTheParameterAndOldRowsStillRead() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(AdminTarget.self, from: Data(#"{"sweep":{"namespace":"c"}}"#.utf8))
                == .sweep(namespace: "c", keepingStaleWindow: false))
        #expect(try decoder.decode(AdminTarget.self, from: Data(#"{"sweep":{}}"#.utf8)) == .sweep(namespace: nil))
        let targets: [AdminTarget] = [
            .sweep(namespace: nil, keepingStaleWindow: true), .sweep(namespace: "c"), .clear(namespace: "c"), .clearAll,
            .invalidate(.tag("t", namespace: "c")), .invalidate(.prefix(namespace: "c", prefix: "a/")),
        ]
        for target in targets {
            let json = try JSONEncoder().encode(target)
            #expect(try decoder.decode(AdminTarget.self, from: json) == target, "\(String(decoding: json, as: UTF8.self))")
        }
        let keeping = String(decoding: try JSONEncoder().encode(targets[0]), as: UTF8.self)
        #expect(keeping.contains(#""keepingStaleWindow":true"#))
        #expect(throws: DecodingError.self) { try decoder.decode(AdminTarget.self, from: Data(#"{"nope":{}}"#.utf8)) }
    }

    /// Two instances on one file: what one sweeps, the other's memory tier drops at its next
    /// check, whether the sweep is the library's or an operator's.
    @Test func anotherInstancesMemoryDropsWhatASweepRemoved() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try sessions(fixture)
        #expect(try app.getStale("recent")?.value == "r")  // in memory, within its stale window
        let other = try fixture.reopen()
        #expect(try other.sweepExpired(keepingStaleWindow: true) == 1)
        try fixture.store.synchronize()
        #expect(try app.getStale("recent")?.value == "r", "kept: still within its stale window")
        #expect(try other.sweepExpired() == 1)
        #expect(try app.getStale("recent")?.value == "r")  // not checked yet: served from memory
        try fixture.store.synchronize()
        #expect(try app.getStale("recent") == nil && app.get("live") == "l")

        try app.set("r2", for: "again")
        fixture.clock.advance(by: .seconds(120))
        #expect(try app.getStale("again")?.value == "r2")
        #expect(try other.admin.run(.sweep(namespace: "sessions")).removed == 1)
        try fixture.store.synchronize()
        #expect(try app.getStale("again") == nil)
    }

    /// Without an explicit check, within the coherence interval (250 ms by default).
    @Test func theBackgroundCheckDropsSweptEntries() throws {
        let fixture = try TestStore()
        let app = try sessions(fixture)
        #expect(try app.getStale("recent")?.value == "r")
        #expect(try fixture.reopen().sweepExpired() == 2)
        #expect(eventually { app.runtime.memory?.count == 1 } != nil, "only live stays")
    }
}
