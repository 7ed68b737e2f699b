import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct OverviewScreenTests {
    @Test func atEightyByTwentyFour() {
        let harness = ConsoleHarness()
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
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
        #expect(harness.rows(styled: .selection).count == 1)
        #expect(harness.rows(styled: .selection).first?.hasPrefix("│hostile") == true)
    }

    @Test func atOneTwentyByFortyBothPanelsShow() {
        var harness = ConsoleHarness(columns: 120, rows: 40)
        harness.press(.down)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite                                                          1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             File  4.8 MB + 131.1 kB WAL · 258 entries (199.4 kB) · 3 namespaces · format 2
             Apps  ● 1 live  ○ 1 stopped · shop-api (pid 4242 on web-1)
             Hits   87.3% ▇▇▇▇██▆▆▆▆▇▇▇▇▇▇██▆▆▆▆▇▇▇▇▇▇██  2,013/s ops · 3.4/s expired · 0/s evicted (10 s)

            ╭─ Namespaces (3) · /m and ops/s: last minute ─────────────────────────────╮╭─ Processes (2) ──────────────────────────╮
            │namespace ▲     entries     bytes   hit rate   misses/m    ops/s   expired││      pid program                     seen│
            │hostile               6     399 B          –          –        –         0││●    4242 shop-api@web-1            1s ago│
            │products            240  196.1 kB      91.2%        106   35.5/s       101││○    3977 shop-worker@web-1         2h ago│
            │sessions             12    2.9 kB      45.7%        217    8.2/s         4││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            │                                                                          ││                                          │
            ╰──────────────────────────────────────────────────────────────────────────╯╰──────────────────────────────────────────╯
             Enter open  s sort  Tab panel  w sweep  D clear  : command  q quit  ? help                      query 1.0 ms · frame –
            """#)
        #expect(harness.rows(styled: .selection).first?.contains("│products") == true)
    }

    @Test func tabShowsTheProcessesWhereOnlyOnePanelFits() {
        var harness = ConsoleHarness()
        harness.press(.tab)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite
             File  4.8 MB + 131.1 kB WAL · 258 entries (199.4 kB) · 3 namespaces · format 2
             Apps  ● 1 live  ○ 1 stopped · shop-api (pid 4242 on web-1)
             Hits   87.3% ▆▆▇▇▇▇▇▇██  2,013/s ops · 3.4/s expired · 0/s evicted (10 s)

            ╭─ Processes (2) ──────────────────────────────────────────────────────────────╮
            │      pid program                                                         seen│
            │●    4242 shop-api@web-1                                                1s ago│
            │○    3977 shop-worker@web-1                                             2h ago│
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
            │                                                                              │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Tab namespaces  w sweep  : command  q quit  ? help      query 1.0 ms · frame –
            """#)
        harness.press(.backTab)
        #expect(harness.screen().contains("Namespaces (3)"))
    }

    @Test func theNamespaceTableSortsByAnyColumnAndTheSelectionFollows() {
        var harness = ConsoleHarness()
        func names() -> [String] {
            harness.screen().split(separator: "\n").dropFirst(7).prefix(3).map {
                String($0.dropFirst().prefix { $0 != " " })
            }
        }
        harness.press(.down)
        harness.press(.character("s"))
        #expect(names() == ["products", "sessions", "hostile"])
        #expect(harness.screen().contains("entries ▼"))
        #expect(harness.rows(styled: .selection).first?.contains("products") == true)
        harness.press(.character("S"))
        #expect(names() == ["hostile", "sessions", "products"])
        harness.press(.character("s"), .character("s"))
        #expect(names() == ["products", "sessions", "hostile"], "by hit rate, namespaces without reads last")
        harness.press(.character("s"))
        #expect(names() == ["sessions", "products", "hostile"], "by misses of the last minute, unknown last")
        // Through ops/s and expired back to the names.
        harness.press(.character("s"), .character("s"), .character("s"))
        #expect(names() == ["hostile", "products", "sessions"])
        #expect(harness.screen().contains("namespace ▲"))
    }

    @Test func theSelectionFollowsItsNamespaceWhenRowsMove() {
        var harness = ConsoleHarness()
        harness.press(.down, .down)
        #expect(harness.rows(styled: .selection).first?.contains("sessions") == true)
        harness.source.change { $0["carts"] = [] }
        harness.wait(1000)
        #expect(harness.rows(styled: .selection).first?.contains("sessions") == true)
        #expect(harness.screen().contains("Namespaces (4)"))
    }

    @Test func changedFiguresAreHighlightedBriefly() {
        var harness = ConsoleHarness()
        harness.source.change { $0["sessions"]?.removeLast() }
        harness.wait(1000)
        #expect(harness.texts(styled: .highlightChanged) == ["11", "2.6 kB"])
        harness.wait(2500)
        #expect(harness.texts(styled: .highlightChanged).isEmpty)
    }
}
