import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct DialogTests {
    @Test func invalidatingAskForYesAndDefaultsToNo() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter, .character(" "), .character(" "), .character("d"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products
             products · 240 entries · 2 marked · row 3 of 240
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │● product-0000                400 B   37m     in 3h      0      never featured│
            │● product-0001                413 B    1h     in 6h      7    17s ago sale,su…│
            │  p╭─ Confirm ────────────────────────────────────────────────────────────╮   │
            │  p│ Invalidate 2 keys in products                                        │   │
            │  p│                                                                      │red│
            │  p│ 2 entries · 813 B · 12.5% of recent hits                             │su…│
            │  p│ e.g. products/product-0000, products/product-0001                    │   │
            │  p│                                                                      │   │
            │  p│ Remove them? [y/N]                                                   │red│
            │  p│                                                                      │su…│
            │  p│ y runs it · any other key cancels (No)                               │   │
            │  p│ Undo with u in the audit view: the trash keeps them 7 days.          │   │
            │  p╰──────────────────────────────────────────────────────────────────────╯red│
            │  product-0013                569 B    8h    in 19h     91     0s ago sale,su…│
            │  product-0014                582 B    9h   expired      1    17s ago         │
            │  product-0015                595 B    9h   expired      8    34s ago         │
            │  product-0016                608 B   10h     in 1h     15    51s ago featured│
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
        harness.press(.enter)
        #expect(harness.screen().contains("Cancelled; nothing was changed."))
        #expect(harness.screen().contains("products · 240 entries · 2 marked"))
        harness.press(.character("d"), .character("n"))
        #expect(harness.screen().contains("Cancelled; nothing was changed."))
        harness.press(.character("d"), .character("y"))
        #expect(harness.screen().contains("Invalidate 2 keys in products: removed 2 entries (813 B). u undoes it."))
        #expect(harness.screen().contains("products · 238 entries · row 1 of 238"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("Restored 2 entries of action #1."))
        #expect(harness.screen().contains("products · 240 entries"))
    }

    /// An action whose preview selects nothing says so instead of asking y/N (issue #25).
    @Test func anActionThatSelectsNothingAsksNothing() throws {
        var harness = ConsoleHarness()
        harness.press(.character(":"))
        harness.type("sweep hostile")
        harness.press(.enter)
        #expect(harness.model.overlay == nil && harness.model.busy == nil)
        #expect(harness.screen().contains("Sweep expired entries of hostile: nothing to do (it selects no entries)."))
        harness.press(.character(":"))
        harness.type("sweep sessions")
        harness.press(.enter)
        guard case .confirm(let dialog) = harness.model.overlay else {
            Issue.record("a sweep that selects entries asks first")
            return
        }
        #expect(dialog.pending.impact.entries == 4)
    }

    @Test func clearingAsksForTheNamespacesName() {
        var harness = ConsoleHarness(columns: 120, rows: 40)
        harness.press(.down, .character("D"))
        harness.type("prod")
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
            │                       ╭─ Confirm ────────────────────────────────────────────────────────────╮                       │
            │                       │ Clear products                                                       │                       │
            │                       │                                                                      │                       │
            │                       │ 240 entries · 196.1 kB · 12.5% of recent hits                        │                       │
            │                       │ e.g. products/product-0000, products/product-0001, products/product… │                       │
            │                       │                                                                      │                       │
            │                       │ Type 'products' to confirm (anything else cancels):                  │                       │
            │                       │ > prod                                                               │                       │
            │                       │                                                                      │                       │
            │                       │ Enter confirms · Esc cancels · the default is No                     │                       │
            │                       │ Undo with u in the audit view: the trash keeps them 7 days.          │                       │
            │                       ╰──────────────────────────────────────────────────────────────────────╯                       │
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
        harness.type("ucts!")
        harness.press(.enter)
        #expect(harness.screen().contains("Cancelled: the name did not match; nothing was changed."))
        harness.press(.character("D"))
        harness.type("products")
        harness.press(.enter)
        #expect(harness.screen().contains("Clear products: removed 240 entries (196.1 kB). u undoes it."))
    }

    @Test func onAFullDiskAClearWarnsThatNothingIsKeptForUndoAndSaysWhatItDid() {
        var harness = ConsoleHarness(columns: 120, rows: 40)
        harness.source.state.withLock { $0.diskFull = true }
        harness.press(.down, .character("D"))
        #expect(harness.screen().contains("The disk is full: they will be deleted without an undo copy."))
        #expect(!harness.screen().contains("the trash keeps them"))
        harness.type("products")
        harness.press(.enter)
        #expect(
            harness.screen().contains(
                "Clear products: disk full: cleared 240 entries (196.1 kB) without keeping them for undo."))
        #expect(!harness.screen().contains("undoes it"))
    }

    @Test func aSweepSaysItCannotBeUndone() {
        var harness = ConsoleHarness()
        harness.press(.character("w"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite
             File  4.8 MB + 131.1 kB WAL · 258 entries (199.4 kB) · 3 namespaces · format 2
             Apps  ● 1 live  ○ 1 stopped · shop-api (pid 4242 on web-1)
             Hits   87.3% ▆▆▇▇▇▇▇▇██  2,013/s ops · 3.4/s expired · 0/s evicted (10 s)

            ╭─ Namespaces (3) · /m and ops/s: last minute ─────────────────────────────────╮
            │nam╭─ Confirm ────────────────────────────────────────────────────────────╮red│
            │hos│ Sweep expired entries of all namespaces                              │  0│
            │pro│                                                                      │101│
            │ses│ 105 entries · 83.7 kB · 12.5% of recent hits                         │  4│
            │   │ e.g. products/product-0007, products/product-0014, products/product… │   │
            │   │                                                                      │   │
            │   │ Remove them? [y/N]                                                   │   │
            │   │                                                                      │   │
            │   │ y runs it · k keeps the stale window · other keys cancel             │   │
            │   │ Sweeps cannot be undone (only expired entries are removed).          │   │
            │   ╰──────────────────────────────────────────────────────────────────────╯   │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  s sort  Tab panel  w sweep  ? help          query 1.0 ms · frame –
            """#)
        harness.press(.character("y"))
        #expect(harness.screen().contains("Sweep expired entries of all namespaces: removed 105 entries"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("Nothing to undo in this session"))
    }

    @Test func readOnlyRefusesEveryActionAndSaysSo() {
        var harness = ConsoleHarness(source: FakeDataSource(isReadOnly: true))
        harness.press(.down, .enter, .character("d"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                      READ-ONLY  live 1 s
             cache.sqlite › products
             products · 240 entries · row 1 of 240
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  product-0000                400 B   37m     in 3h      0      never featured│
            │  product-0001                413 B    1h     in 6h      7    17s ago sale,su…│
            │  product-0002                426 B    1h    in 10h     14    34s ago         │
            │  product-0003                439 B    2h    in 13h     21    51s ago         │
            │  product-0004                452 B    3h    in 16h     28     1m ago featured│
            │  product-0005                465 B    3h    in 20h     35     1m ago sale,su…│
            │  product-0006                478 B    4h    in 23h     42     1m ago         │
            │  product-0007                491 B    4h   expired     49     1m ago         │
            │  product-0008                504 B    5h     in 2h     56     2m ago featured│
            │  product-0009                517 B    6h     never     63     2m ago sale,su…│
            │  product-0010                530 B    6h     in 9h     70     2m ago         │
            │  product-0011                543 B    7h    in 12h     77     3m ago         │
            │  product-0012                556 B    8h    in 15h     84     3m ago featured│
            │  product-0013                569 B    8h    in 19h     91     0s ago sale,su…│
            │  product-0014                582 B    9h   expired      1    17s ago         │
            │  product-0015                595 B    9h   expired      8    34s ago         │
            │  product-0016                608 B   10h     in 1h     15    51s ago featured│
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Read-only: actions are disabled (the file was opened read-only).
            """#)
        for key in ["D", "w", "u"] {
            harness.press(.character(Character(key)))
            #expect(harness.model.overlay == nil && harness.model.busy == nil)
        }
    }

    @Test func theCommandLineCompletesAndRunsCommands() {
        var harness = ConsoleHarness()
        harness.press(.character(":"))
        harness.type("inv")
        harness.press(.tab)
        harness.type("t")
        harness.press(.tab)
        harness.type("featured ns=")
        harness.press(.tab)
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
             hostile  products  sessions
            :invalidate tag=featured ns=
            """#)
        harness.type("p")
        harness.press(.tab, .enter)
        #expect(harness.screen().contains("Invalidate tag 'featured' in products"))
        harness.press(.character("y"))
        #expect(harness.screen().contains("removed 60 entries"))
    }

    @Test func quittingWhileAnActionWritesWaitsForIt() throws {
        var harness = ConsoleHarness()
        harness.press(.down, .character("D"))
        harness.type("products")
        let run = harness.controller.handle(.input(.key(.enter)))
        #expect(harness.controller.handle(.input(.key(.character("q")))).isEmpty)
        #expect(harness.screen().contains("Clear products… 0s (Esc stops); quitting when it finishes"))
        let effect = try #require(run.first)
        let message = try #require(EffectPerformer.perform(effect, on: harness.source))
        #expect(harness.controller.handle(message) == [.quit])
    }

    @Test func anUnknownNamespaceIsRefusedWithTheReason() {
        var harness = ConsoleHarness()
        harness.press(.character(":"))
        harness.type("ns nosuch")
        harness.press(.enter)
        #expect(harness.texts(styled: .statusError) == ["No namespace named 'nosuch' (Tab completes the names)."])
        #expect(harness.model.views.count == 1)
        harness.press(.character(":"))
        harness.type("ns sess")
        harness.press(.tab, .enter)
        #expect(harness.screen().contains("sessions · 12 entries"))
    }

    @Test func themesSwitchFromTheCommandLine() {
        var harness = ConsoleHarness()
        harness.press(.character(":"))
        harness.type("theme light")
        harness.press(.enter)
        #expect(
            harness.sideEffects.contains {
                if case .applyTheme(let theme) = $0 { theme.name == "light" } else { false }
            })
        harness.press(.character(":"))
        harness.type("theme nosuch")
        harness.press(.enter)
        #expect(harness.rows(styled: .statusError).first?.hasPrefix("theme 'nosuch': no such theme") == true)
    }
}

/// The sweep dialog's `k` measures the sweep again keeping (or no longer keeping) the expired
/// entries inside their stale window, and `y` then removes exactly what it showed.
@Suite struct SweepDialogTests {
    @Test func kTogglesTheStaleWindowAndTheFiguresFollow() throws {
        let folder = TemporaryFolder()
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(FakeDataSource.now) / 1000 - 7200))
        let store = try CacheStore(
            path: folder.url.appendingPathComponent("sweep.sqlite").path, options: StoreOptions(clock: clock))
        let sessions = try store.cache(
            "sessions", key: String.self, value: String.self,
            policy: .databaseOnly.expiring(.after(.seconds(60))).staleWindow(.seconds(3600)))
        try sessions.set("p", for: "past")
        clock.advance(by: .seconds(7080))
        try sessions.set("r", for: "recent")
        clock.advance(by: .seconds(120))
        var harness = ConsoleHarness(columns: 100, rows: 30, source: try StoreDataSource(store: store))
        harness.press(.character(":"))
        harness.type("sweep sessions")
        harness.press(.enter)
        guard case .confirm(let removing) = harness.model.overlay else {
            Issue.record("the sweep asks first")
            return
        }
        #expect(removing.pending.impact.entries == 2)
        #expect(harness.screen().contains("y runs it · k keeps the stale window · other keys cancel"))
        harness.press(.character("k"))
        guard case .confirm(let keeping) = harness.model.overlay else {
            Issue.record("k measures the sweep again")
            return
        }
        #expect(keeping.pending.target == .sweep(namespace: "sessions", keepingStaleWindow: true))
        #expect(keeping.pending.impact.entries == 1)
        #expect(harness.screen().contains("Sweep expired entries of sessions, keeping the stale window"))
        #expect(harness.screen().contains("k removes the stale window too"))
        harness.press(.character("y"))
        #expect(try sessions.getStale("recent")?.value == "r" && sessions.getStale("past") == nil)
    }
}
