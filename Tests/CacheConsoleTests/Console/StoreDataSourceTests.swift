import CacheConsole
import TerminalUI
import CacheCore
import Foundation
import Testing

/// The real data source over a real file: what the console reads and does through CacheCore.
@Suite struct StoreDataSourceTests {
    private func store() throws -> (CacheStore, TemporaryFolder) {
        let folder = TemporaryFolder()
        let store = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path)
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        for index in 0..<450 {
            try tiles.set(
                "tile \(index)", for: String(format: "z%02d/%03d", index % 3, index),
                tags: index % 50 == 0 ? ["hot"] : [])
        }
        let users = try store.cache("users", key: Int.self, value: [String: String].self)
        try users.set(["name": "Ada", "role": "admin"], for: 1)
        return (store, folder)
    }

    @Test func aProcessWithTwoStoresOnTheFileIsOneApp() throws {
        let (store, folder) = try store()
        _ = folder
        let second = try CacheStore(path: store.path)
        try store.flushTelemetry()
        try second.flushTelemetry()
        let source = try StoreDataSource.open(path: store.path, readOnly: true)
        let processes = try source.overview().processes
        #expect(processes.count == 1, "both stores are this process")
        #expect(processes.first?.stores == 2 && processes.first?.isLive == true)
        #expect(processes.first?.pid == ProcessInfo.processInfo.processIdentifier)
    }

    /// "Hits 100 %" never sits beside "0/s ops": the hit rate is over the same last seconds.
    @Test func theHitRateIsOverTheSameSecondsAsTheRatesBesideIt() throws {
        let folder = TemporaryFolder()
        let clock = ManualClock()
        var options = StoreOptions()
        options.clock = clock
        let app = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path, options: options)
        let tiles = try app.cache("tiles", key: String.self, value: String.self)
        try tiles.set("v", for: "a")
        _ = try tiles.get("a")
        _ = try tiles.get("b")
        try app.flushTelemetry()
        var inspection = StoreOptions.inspection()
        inspection.clock = clock
        let source = try StoreDataSource(store: CacheStore(path: app.path, options: inspection))
        clock.advance(by: .seconds(2))
        let busy = try source.overview().activity
        #expect(busy.hitRate == 0.5 && busy.operationsPerSecond > 0, "\(busy)")
        clock.advance(by: .seconds(30))
        let idle = try source.overview().activity
        #expect(idle.operationsPerSecond == 0 && idle.hitRate == nil, "the last minute's 50 % is not these seconds'")
    }

    @Test func readsOverviewPagesDetailTimelineAndStatistics() throws {
        let (store, folder) = try store()
        _ = folder
        let source = try StoreDataSource.open(path: store.path, readOnly: true)
        #expect(source.isReadOnly)
        let overview = try source.overview()
        #expect(overview.namespaces.map(\.name) == ["tiles", "users"])
        #expect(overview.namespaces.map(\.entries) == [450, 1])
        #expect(overview.file.entries == 451)

        var request = EntriesRequest(
            namespace: "tiles", sort: EntrySort(.key), filter: "prefix:z01", start: nil, limit: 100)
        var keys: [String] = []
        repeat {
            let page = try source.entries(request)
            keys += page.rows.map(\.key)
            request.start = page.next
        } while request.start != nil
        #expect(keys.count == 150 && keys == keys.sorted() && keys.allSatisfy { $0.hasPrefix("z01/") })

        let user = try #require(
            try source.entries(
                EntriesRequest(namespace: "users", sort: EntrySort(.key), filter: "", start: nil, limit: 10)
            ).rows.first)
        let detail = try #require(try source.entry(id: user.id, hex: false))
        #expect(detail.value == .json("{\n  \"name\": \"Ada\",\n  \"role\": \"admin\"\n}", isTruncated: false))
        let hex = try #require(try source.entry(id: user.id, hex: true))
        guard case .hexDump(let lines, false) = hex.value else {
            Issue.record("expected a hex dump")
            return
        }
        #expect(
            lines.first?.hasPrefix(
                "00000000  7b 22 6e 61 6d 65 22 3a  22 41 64 61 22 2c 22 72  |{\"name\":\"Ada\",\"r|") == true)
        // The whole value, as stored, for the clipboard and the pager.
        #expect(try source.wholeValue(namespace: "users", key: user.key) == Data(#"{"name":"Ada","role":"admin"}"#.utf8))
        #expect(try source.wholeValue(namespace: "users", key: "nobody") == nil)

        let timeline = try source.timeline(namespace: "tiles")
        #expect(timeline.buckets.map(\.entries).reduce(0, +) == 450 && timeline.hourly.count == 48)
        let statistics = try source.statistics(window: .fiveMinutes)
        #expect(statistics.overall.operations.count == 60 && statistics.namespaces.keys.sorted() == ["tiles", "users"])
    }

    @Test func actionsGoThroughTheActionControllerAndFiltersBecomeSelectors() throws {
        let (store, folder) = try store()
        _ = folder
        let source = try StoreDataSource.open(path: store.path, readOnly: false)
        let byTag = try source.prepare(.matching(namespace: "tiles", filter: "tag:hot"))
        #expect(byTag.target == .invalidate(.tag("hot", namespace: "tiles")) && byTag.impact.entries == 9)
        let byPrefix = try source.prepare(.matching(namespace: "tiles", filter: "prefix:z02/"))
        #expect(byPrefix.target == .invalidate(.prefix(namespace: "tiles", prefix: "z02/")))
        let everything = try source.prepare(.matching(namespace: "tiles", filter: ""))
        #expect(everything.confirmation == .typeName("tiles"))
        let byKeys = try source.prepare(.matching(namespace: "tiles", filter: "z00/ tag:hot"))
        #expect(byKeys.impact.entries == 3)
        guard case .invalidate(.keys("tiles", let keys)) = byKeys.target else {
            Issue.record("a general filter invalidates its matching keys")
            return
        }
        #expect(keys == ["z00/000", "z00/150", "z00/300"])
        #expect(throws: ConsoleError.self) {
            try source.prepare(.matching(namespace: "tiles", filter: "nothing-like-this"))
        }

        #expect(try source.run(byKeys, answer: "", progress: { _ in true }) == nil, "the default answer is No")
        let result = try #require(try source.run(byKeys, answer: "y", progress: { _ in true }))
        #expect(result.outcome.removed == 3)
        #expect(try source.overview().namespaces[0].entries == 447)
        #expect(try source.undo(auditID: try #require(result.undo).auditID) == UndoOutcome(restored: 3, removed: 3))
        #expect(
            try source.auditLog(limit: 10).map(\.action) == [
                "restore #1", "invalidate keys tiles/{z00/000,z00/150,z00/300}",
            ])

        let reader = try StoreDataSource.open(path: store.path, readOnly: true)
        #expect(throws: CacheError.readOnly(path: store.path)) { try reader.prepare(.target(.sweep(namespace: nil))) }
    }

    @Test func exportRefusesToReplaceAFileUnlessAskedAndExpandsTildeFromHOME() throws {
        let (store, folder) = try store()
        let source = try StoreDataSource.open(path: store.path, readOnly: true)
        let path = folder.url.appendingPathComponent("out.jsonl").path
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConsoleError.self) { try source.export(ExportRequest(namespace: "users", path: path)) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        #expect(try source.export(ExportRequest(namespace: "users", path: path, replacing: true)) == 1)
        #expect(ExportRequest.expandingHome("~/x.jsonl", home: "/home/ops") == "/home/ops/x.jsonl")
        #expect(ExportRequest.expandingHome("~", home: "/home/ops") == "/home/ops")
        #expect(ExportRequest.expandingHome("~other/x", home: "/home/ops") == "~other/x")
        #expect(ExportRequest.expandingHome("./~/x", home: "/home/ops") == "./~/x")
    }

    @Test func onlyCommitsCountAsChanges() throws {
        let (store, folder) = try store()
        _ = folder
        let source = try StoreDataSource.open(path: store.path, readOnly: true)
        #expect(try source.hasChanged())
        _ = try source.overview()
        #expect(try !source.hasChanged())
        try store.cache("users", key: Int.self, value: [String: String].self).set(["name": "Bob"], for: 2)
        #expect(try source.hasChanged())
    }
}
