import CacheCore
import Foundation
import Synchronization
import Testing

@testable import CacheConsole
import TerminalUI

/// A long action in the console: its progress shows while it runs, and Esc stops it after the
/// batch it is on, leaving what it removed undoable.
@Suite struct ActionProgressTests {
    @Test func aLongActionShowsHowFarItIsAndEscStopsIt() throws {
        let folder = TemporaryFolder()
        let store = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path)
        let tiles = try store.cache("tiles", key: String.self, value: Int.self)
        try tiles.set((0..<2500).map { (key: "t\($0)", value: $0) })
        var harness = ConsoleHarness(columns: 100, rows: 30, source: try StoreDataSource(store: store))
        harness.press(.character(":"))
        harness.type("invalidate prefix=t ns=tiles")
        harness.press(.enter)
        #expect(harness.screen().contains("Invalidate keys starting 't' in tiles"))
        let run = harness.controller.handle(.input(.key(.character("y"))))
        let effect = try #require(run.first)

        _ = harness.controller.handle(.progress(ActionProgress(done: 1000, total: 2500)))
        #expect(harness.screen().contains("1,000 of 2,500") && harness.screen().contains("(Esc stops)"))
        #expect(harness.controller.handle(.input(.key(.escape))).isEmpty)
        #expect(harness.screen().contains("; stopping"))

        let posted = Mutex<[ConsoleMessage]>([])
        let message = try #require(
            EffectPerformer.perform(effect, on: harness.source) { message in posted.withLock { $0.append(message) } })
        #expect(posted.withLock { $0.count } == 1, "the action stopped after its first batch")
        _ = harness.controller.handle(message)
        #expect(harness.screen().contains("Stopped. Invalidate keys starting 't' in tiles: removed 1,000 entries"))
        #expect(try tiles.count() == 1500)
        harness.press(.character("u"))
        #expect(try tiles.count() == 2500)
    }
}
