import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// The wedding planner's tenant, as the app models it.
private struct Tenant: Sendable, Hashable {
    let id: String
    let plan: String
}

/// Loaders and warmers get the tenant as an argument, not by parsing the key.
@Suite struct TenantLoaderTests {
    private static let acme = Tenant(id: "acme", plan: "gold")
    private static let globex = Tenant(id: "globex", plan: "free")

    @Test func aWarmerOverSeveralTenantsGetsEachKeysTenant() async throws {
        let fixture = try TestStore()
        let planner = try fixture.store.cache("planner", key: String.self, value: String.self)
        try planner.set("cached", for: "guests_globex")
        let calls = Mutex<[String: Tenant]>([:])
        let report = await planner.warm(
            [(key: "guests_acme", tenant: Self.acme), (key: "vendors_acme", tenant: Self.acme),
             (key: "guests_globex", tenant: Self.globex)], concurrency: 2
        ) { key, tenant in
            calls.withLock { $0[key] = tenant }
            return "\(tenant.id) on \(tenant.plan)"
        }
        #expect(report == WarmingReport(loaded: 2, alreadyCached: 1, failed: 0))
        #expect(calls.withLock { $0 } == ["guests_acme": Self.acme, "vendors_acme": Self.acme])
        #expect(try planner.get("vendors_acme") == "acme on gold")
        #expect(try planner.get("guests_globex") == "cached")
    }

    @Test func readThroughGetsTheTenantOnBothFaces() async throws {
        let fixture = try TestStore()
        let planner = try fixture.store.cache("planner", key: String.self, value: String.self)
        let loaded = try await planner.value(for: "guests_acme", tenant: Self.acme) { key, tenant in
            "\(key) of \(tenant.id)"
        }
        #expect(loaded == "guests_acme of acme")
        let read = try await planner.async.read("seating_globex", tenant: Self.globex) { _, tenant in tenant.plan }
        #expect(read.value == "free" && !read.isStale)
        #expect(try planner.get("seating_globex") == "free")
        let warmed = await planner.async.warm([(key: "stats_globex", tenant: Self.globex)]) { _, tenant in tenant.id }
        #expect(warmed.loaded == 1)
        #expect(try planner.get("stats_globex") == "globex")
        let cached = try await planner.async.value(for: "stats_globex", tenant: Self.acme) { _, _ in "not loaded" }
        #expect(cached == "globex")
    }
}
