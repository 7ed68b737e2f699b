import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct ChromeTests {
    @Test func belowTheMinimumSizeOnlyANoticeShows() {
        var harness = ConsoleHarness()
        harness.resize(columns: 59, rows: 20)
        expectScreen(
            harness,
            #"""








                                Terminal too small
                                59×20; needs 60×16
                         Enlarge the window, or q to quit









            """#)
        harness.resize(columns: 60, rows: 16)
        #expect(harness.screen().contains("Namespaces (3)"))
    }

    @Test func pausingShowsHowOldTheDataIs() {
        var harness = ConsoleHarness()
        harness.press(.character("p"))
        harness.source.change { $0["sessions"]?.removeLast() }
        harness.wait(12_000)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                           paused 12s old
             cache.sqlite
             File  4.8 MB + 131.1 kB WAL · 258 entries (199.4 kB) · 3 namespaces · format 2
             Apps  ● 1 live  ○ 1 stopped · shop-api (pid 4242 on web-1)
             Hits   87.3% ▆▆▇▇▇▇▇▇██  2,013/s ops · 3.4/s expired · 0/s evicted (10 s)

            ╭─ Namespaces (3) · /m and ops/s: last minute ─────────────────────────────────╮
            │namespace ▲         entries     bytes   hit rate   misses/m    ops/s   expired│
            │hostile                   6     399 B          –          –        –         0│
            │products                240  196.1 kB      91.2%        106   35.5/s       101│
            │sessions                 12    2.9 kB      45.7%        217    8.2/s         4│
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  s sort  Tab panel  w sweep  ? help          query 1.0 ms · frame –
            """#)
        harness.press(.character("p"))
        #expect(harness.screen().contains("11    2.6 kB"))
    }

    @Test func refreshIntervalSteps() {
        var harness = ConsoleHarness()
        harness.press(.character("+"), .character("+"), .character("+"))
        #expect(harness.model.live.interval == .milliseconds(250))
        #expect(harness.screen().contains("live 250 ms"))
        for _ in 0..<9 { harness.press(.character("_")) }
        #expect(harness.model.live.interval == .seconds(60))
        #expect(harness.screen().contains("live 1 min"))
    }

    @Test func aFailedReadLandsInTheStatusLineAndTheConsoleStaysUsable() {
        var harness = ConsoleHarness()
        harness.source.failNextRead("database is locked (busy)")
        harness.press(.down, .enter)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products
             products · 240 entries
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            │  …                                                                           │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             database is locked (busy)                               query 1.0 ms · frame –
            """#)
        harness.press(.escape, .enter)
        #expect(harness.screen().contains("product-0000"))
    }

    @Test func aBrokenKeyFileIsReportedAtStart() {
        let harness = ConsoleHarness(notices: ["Keys: keys.toml: line 1, column 5: expected '='"])
        #expect(harness.texts(styled: .statusError) == ["Keys: keys.toml: line 1, column 5: expected '='"])
    }

    @Test func aQuietFileIsNotReloadedButAChangedOneIs() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter)
        let before = harness.source.reads
        harness.wait(1000)
        harness.wait(1000)
        #expect(harness.source.reads == before, "an idle tick costs one data_version check, no reads")
        harness.source.change { $0["products"]?[3].hits = 500 }
        harness.wait(250)
        #expect(harness.source.reads > before)
        #expect(harness.texts(styled: .highlightChanged) == ["500"])
    }

    @Test func mouseReportingToggles() {
        var harness = ConsoleHarness()
        harness.press(.character("m"))
        #expect(harness.sideEffects == [.setMouseReporting(true)])
        harness.handle(.input(.mouse(MouseEvent(kind: .scrollDown, position: Point(column: 3, row: 9)))))
        #expect(harness.rows(styled: .selection).first?.contains("sessions") == true)
    }
}
