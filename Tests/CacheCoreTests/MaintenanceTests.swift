import CacheDeckTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CacheCore

@Suite struct MaintenanceTests {
    /// Options that run only `tasks`, with budgets no test machine can run out of.
    private func only(_ tasks: MaintenanceTask...) -> MaintenanceOptions {
        MaintenanceOptions(tasks: Set(tasks), sweepBudget: .seconds(600), batchBudget: .seconds(5))
    }

    @Test func aPassSweepsExpiredEntriesAndCountsThem() throws {
        let fixture = try TestStore()
        let short = try fixture.store.cache("short", key: Int.self, value: Int.self)
        let long = try fixture.store.cache("long", key: Int.self, value: Int.self)
        try short.set((0..<3000).map { (key: $0, value: $0) }, expiration: .after(.seconds(5)))
        try long.set((0..<10).map { (key: $0, value: $0) }, expiration: .never)
        fixture.clock.advance(by: .seconds(5) + NamespacePolicy.defaultStaleWindow)

        let report = try fixture.store.runMaintenance(only(.sweepExpired))
        #expect(report.expiredRemoved == 3000)
        #expect(report.sweepFinished && !report.repeatsSoon)
        #expect(report.failures.isEmpty)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 10)
        #expect(short.statistics().expirations == 3000)
        #expect(fixture.store.maintenanceStatus.passes == 1)
        #expect(fixture.store.maintenanceStatus.lastReport == report)
    }

    @Test func aSweepOutOfBudgetRepeatsSoonWhileMuchOfItsSampleIsExpired() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set((0..<500).map { (key: $0, value: $0) }, expiration: .after(.seconds(1)))
        fixture.clock.advance(by: .seconds(1) + NamespacePolicy.defaultStaleWindow)
        var options = only(.sweepExpired)
        options.sweepBudget = .zero

        let report = try fixture.store.runMaintenance(options)
        #expect(report.expiredRemoved == 0)
        #expect(!report.sweepFinished)
        #expect(report.sampledExpiredShare == 1)
        #expect(report.repeatsSoon)

        options.repeatThreshold = 1.01
        let calm = try fixture.store.runMaintenance(options)
        #expect(calm.sampledExpiredShare == 1)
        #expect(!calm.repeatsSoon, "below the threshold it waits for the interval")
    }

    @Test func sizeLimitsLoweredSinceTheLastWriteAreEnforced() throws {
        let fixture = try TestStore()
        let open = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try open.set((0..<50).map { (key: $0, value: $0) })
        // A new policy is recorded when a handle opens with it; no write has enforced it yet.
        let limited = try fixture.store.cache("n", key: Int.self, value: Int.self, policy: .default.keepingNewest(20))
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 50)

        let report = try fixture.store.runMaintenance(only(.enforceSizeLimits))
        #expect(report.evicted == 30)
        #expect(try limited.count() == 20)
        #expect(try limited.get(49) == 49 && limited.get(0) == nil, "the newest are kept")
        #expect(limited.statistics().evictions == 30)
    }

    @Test func evictionByMaintenanceSeesTheReadsRecordedInMemory() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set((0..<30).map { (key: $0, value: $0) })
        fixture.clock.advance(by: .seconds(1))
        for key in 0..<10 { _ = try cache.get(key) }  // the oldest written, so only recency saves them
        let limited = try fixture.store.cache(
            "n", key: Int.self, value: Int.self, policy: NamespacePolicy(maxEntries: 10))

        #expect(try fixture.store.runMaintenance(only(.enforceSizeLimits)).evicted == 20)
        for key in 0..<10 { #expect(try limited.get(key) == key, "recently read \(key) was evicted") }
        #expect(try limited.get(10) == nil)
    }

    @Test func storeLimitsAreEnforcedAcrossNamespaces() throws {
        let fixture = try TestStore()
        let writer = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try writer.set((0..<40).map { (key: $0, value: $0) })
        let limited = try fixture.reopen { $0.maxEntries = 25 }
        let report = try limited.runMaintenance(only(.enforceSizeLimits))
        #expect(report.evicted == 15)
        #expect(try writer.count() == 25)
    }

    @Test func theCheckpointMovesTheWALIntoTheFileAndTruncatesALargeOne() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = nil }
        let cache = try fixture.store.dataCache("blobs", key: Int.self)
        try cache.set((0..<200).map { (key: $0, value: Data(count: 1000)) })
        #expect(try fixture.store.size().walBytes > 0)

        let passive = try #require(try fixture.store.runMaintenance(only(.checkpointWAL)).checkpoint)
        #expect(passive.framesInLog > 0 && passive.framesCheckpointed == passive.framesInLog)
        #expect(!passive.truncated, "a small WAL is reused, not truncated")

        var options = only(.checkpointWAL)
        options.walTruncateBytes = 1
        let truncating = try #require(try fixture.store.runMaintenance(options).checkpoint)
        #expect(truncating.truncated)
        #expect(truncating.walBytesBefore > 0 && truncating.walBytesAfter == 0)
        #expect(try fixture.store.size().walBytes == 0)
        #expect(try cache.get(199) == Data(count: 1000))
    }

    @Test func downsamplingKeepsTotalsAndDropsWhatIsPastRetention() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        // Two hours of one flush every 30 s: 240 one-second buckets.
        for tick in 0..<240 {
            for _ in 0..<(tick % 5 + 1) { _ = try cache.get(tick) }
            try fixture.store.flushTelemetry()
            fixture.clock.advance(by: .seconds(30))
        }
        let before = try fixture.store.telemetry(since: .distantPast).total
        #expect(before.misses == cache.statistics().misses)
        let rowsBefore = try #require(try fixture.scalar("SELECT count(*) FROM stats"))

        let report = try fixture.store.runMaintenance(only(.downsampleTelemetry))
        #expect(report.telemetryRowsRolledUp > 100)
        #expect(try fixture.store.telemetry(since: .distantPast).total == before, "rolling up keeps every total")
        let oneHourAgo = fixture.clock.nowMilliseconds() - 3_600_000
        #expect(
            try fixture.scalar("SELECT count(*) FROM stats WHERE resolution = 1000 AND bucket < \(oneHourAgo)") == 0)
        #expect(try #require(try fixture.scalar("SELECT count(*) FROM stats")) < rowsBefore)
        #expect(
            try fixture.scalar("SELECT count(*) FROM stats WHERE resolution = 60000 AND bucket % 60000 != 0") == 0,
            "whole minutes")
        let series = try fixture.store.telemetry(since: .distantPast).overall
        #expect(series.contains { $0.duration == .seconds(60) } && series.contains { $0.duration == .seconds(1) })
        #expect(try fixture.store.runMaintenance(only(.downsampleTelemetry)).telemetryRowsRolledUp == 0)

        // A day later everything is in hours; 31 days later it is gone.
        fixture.clock.advance(by: .seconds(26 * 3600))
        _ = try fixture.store.runMaintenance(only(.downsampleTelemetry))
        #expect(try fixture.store.telemetry(since: .distantPast).total == before)
        #expect(try fixture.scalar("SELECT count(*) FROM stats WHERE resolution != 3600000") == 0)
        fixture.clock.advance(by: .seconds(31 * 24 * 3600))
        let last = try fixture.store.runMaintenance(only(.downsampleTelemetry))
        #expect(last.telemetryRowsDeleted > 0)
        #expect(try fixture.scalar("SELECT count(*) FROM stats") == 0)
    }

    @Test func staleClientRowsAreRemoved() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        try fixture.store.flushTelemetry()
        let other = try fixture.reopen { $0.statistics.telemetryInterval = .seconds(3600) }
        try other.flushTelemetry()
        try other.close()
        fixture.clock.advance(by: .seconds(2 * 3600))
        try fixture.store.flushTelemetry()

        let report = try fixture.store.runMaintenance(only(.removeStaleClients))
        #expect(report.staleClientsRemoved == 1)
        #expect(try fixture.store.clients().map(\.id) == [fixture.store.clientID].compactMap { $0 })
    }

    @Test func theTrashPurgeDeletesAndCountsExactlyWhatIsPastItsRetentionInTheStoresSizedBatches() throws {
        // Every batch "takes" 1 s, so each one halves the next: the purge's batches are the
        // store's sized deletions (the admin purge's), not fixed ones.
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: .seconds(1)) }
        let admin = fixture.store.admin
        let old = try fixture.store.cache("old", key: Int.self, value: Int.self)
        try old.set((0..<1500).map { (key: $0, value: $0) })
        _ = try admin.run(.clear(namespace: "old"))
        let kept = try fixture.store.cache("kept", key: String.self, value: Int.self)
        try kept.set(1, for: "a")
        try kept.set(2, for: "b")
        _ = try admin.run(.expiry(selector: .key(namespace: "kept", key: "a"), change: .expireNow))
        let v1 = try fixture.store.cache("versioned", key: Int.self, value: Int.self, policy: .default.version("v1"))
        try v1.set((0..<300).map { (key: $0, value: $0) })
        _ = try fixture.store.cache("versioned", key: Int.self, value: Int.self, policy: .default.version("v2"))
        fixture.clock.advance(by: .seconds(3600))
        let recent = try fixture.store.cache("recent", key: Int.self, value: Int.self)
        try recent.set((0..<200).map { (key: $0, value: $0) })
        let recentClear = try admin.run(.clear(namespace: "recent"))
        #expect(fixture.store.deleter.size == BatchSizer.initial)

        var options = only(.purgeTrashAndAudit)
        (options.trashRetention, options.auditRetention) = (.seconds(60), .seconds(60))
        let report = try fixture.store.runMaintenance(options)
        #expect(report.failures.isEmpty)
        #expect(report.trashRowsPurged == 1800, "the old clear's 1,500 entries and the retired version's 300")
        #expect(report.auditRowsPurged == 2, "the old clear and the expiry action, whose trash is gone")
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 202, "kept's 2 and the recent trash's 200")
        #expect(try fixture.scalar("SELECT count(*) FROM expiry_trash") == 0)
        #expect(fixture.store.deleter.size == BatchSizer.range.lowerBound)
        #expect(try admin.auditLog().map(\.id) == [recentClear.auditID])
        #expect(try admin.restore(recentClear.auditID) == 200)

        let again = try fixture.store.runMaintenance(options)
        #expect(again.trashRowsPurged == 0 && again.auditRowsPurged == 0)
    }

    @Test func memoryTierRegistrationsOfEndedProcessesAreRemoved() throws {
        let fixture = try TestStore()
        _ = try fixture.store.cache("hot", key: Int.self, value: Int.self, policy: .hybrid)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ProcessLauncher.run(ended)
        ended.waitUntilExit()
        let host = ProcessInfo.processInfo.hostName
        try fixture.store.database.write {
            try $0.registerMemoryTier(origin: "ended", pid: ended.processIdentifier, host: host, now: 0)
            try $0.registerMemoryTier(origin: "elsewhere", pid: ended.processIdentifier, host: "other-host", now: 0)
        }
        let report = try fixture.store.runMaintenance(only(.removeStaleClients))
        #expect(report.staleClientsRemoved == 1)
        let left = try fixture.store.database.read {
            try $0.withDynamicStatement("SELECT origin FROM memory_tiers ORDER BY origin") {
                try $0.rows { $0.text(0) }
            }
        }
        #expect(left == ["elsewhere", fixture.store.origin].sorted(), "live and other hosts' registrations stay")
    }

    @Test func startIsIdempotentStopWaitsAndRestartTakesNewOptions() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set((0..<100).map { (key: $0, value: $0) }, expiration: .after(.seconds(1)))
        fixture.clock.advance(by: .seconds(1) + NamespacePolicy.defaultStaleWindow)
        let hourly = MaintenanceOptions(interval: .seconds(3600))

        try fixture.store.startMaintenance(hourly)
        #expect(fixture.store.maintenanceStatus.isRunning)
        #expect(eventually { fixture.store.maintenanceStatus.passes == 1 } != nil, "the first pass runs at once")
        #expect(try cache.count() == 0 && fixture.scalar("SELECT count(*) FROM entries") == 0)
        try fixture.store.startMaintenance(hourly)
        fixture.store.stopMaintenance()
        #expect(fixture.store.maintenanceStatus.passes == 1, "starting again with the same options is a no-op")
        #expect(!fixture.store.maintenanceStatus.isRunning)
        fixture.store.stopMaintenance()

        try fixture.store.startMaintenance(hourly)
        #expect(eventually { fixture.store.maintenanceStatus.passes == 2 } != nil, "a stopped service starts again")
        var often = hourly
        often.interval = .milliseconds(10)
        try fixture.store.startMaintenance(often)
        #expect(fixture.store.maintenanceStatus.options == often)
        #expect(
            eventually { fixture.store.maintenanceStatus.passes >= 5 } != nil,
            "the restart runs at the new interval")
        try fixture.store.close()
        #expect(!fixture.store.maintenanceStatus.isRunning, "closing stops it")
        let passes = fixture.store.maintenanceStatus.passes
        let closed = CacheError.cannotOpen(path: fixture.path, reason: "the store was closed")
        #expect(throws: closed) { try fixture.store.runMaintenance() }
        #expect(throws: closed) { try fixture.store.startMaintenance() }
        #expect(!fixture.store.maintenanceStatus.isRunning)
        #expect(fixture.store.maintenanceStatus.passes == passes)
    }

    @Test func aReadOnlyStoreRefusesMaintenance() throws {
        let fixture = try TestStore()
        try fixture.store.cache("n", key: Int.self, value: Int.self).set(1, for: 1)
        let reader = try CacheStore(path: fixture.path, options: .inspection())
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.startMaintenance() }
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.runMaintenance() }
        #expect(!reader.maintenanceStatus.isRunning)
    }

    @Test func aSweepUnderConcurrentLoadLeavesReadsAndWritesServed() throws {
        let fixture = try TestStore()
        let expired = try fixture.store.dataCache("expired", key: Int.self)
        let live = try fixture.store.cache("live", key: Int.self, value: Int.self)
        let count = 60_000
        for start in stride(from: 0, to: count, by: 5000) {
            try expired.set(
                (start..<start + 5000).map { (key: $0, value: Data(count: 64)) }, expiration: .after(.seconds(1)))
        }
        try live.set((0..<1000).map { (key: $0, value: $0) }, expiration: .never)
        fixture.clock.advance(by: .seconds(1) + NamespacePolicy.defaultStaleWindow)

        let sweeping = Atomic(true)
        let reads = Atomic(0)
        let writes = Atomic(0)
        let failures = Mutex<[String]>([])
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for worker in 0..<2 {
            // Threads of their own: the dispatch pool may not start a second busy block on two cores.
            Thread {
                defer { finished.signal() }
                started.signal()
                var index = 0
                while sweeping.load(ordering: .acquiring) {
                    do {
                        if worker == 0 {
                            if try live.get(index % 1000) != index % 1000 {
                                failures.withLock { $0.append("live \(index % 1000) misread") }
                            }
                            reads.add(1, ordering: .relaxed)
                        } else {
                            try live.set(index, for: 10_000 + index)
                            writes.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    index += 1
                }
            }.start()
        }
        // Both threads run before the sweep starts.
        for _ in 0..<2 { started.wait() }
        let before = (reads: reads.load(ordering: .relaxed), writes: writes.load(ordering: .relaxed))
        let removed = try fixture.store.sweepExpired()
        let after = (reads: reads.load(ordering: .relaxed), writes: writes.load(ordering: .relaxed))
        sweeping.store(false, ordering: .releasing)
        for _ in 0..<2 { finished.wait() }

        #expect(removed == count)
        #expect(failures.withLock { $0 } == [])
        #expect(after.reads > before.reads, "reads were served during the sweep")
        #expect(after.writes > before.writes, "writes interleaved with the sweep's batches")
        #expect(try live.get(999) == 999)
        #expect(expired.statistics().expirations == count)
    }
}
