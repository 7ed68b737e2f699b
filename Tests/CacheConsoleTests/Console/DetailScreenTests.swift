import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct DetailScreenTests {
    /// The value is wrapped when it arrives and when the terminal is resized, not for every
    /// frame and key (a 64 KiB value took ~30 ms a wrap in a release build).
    @Test func theValueIsWrappedOncePerWidth() throws {
        var harness = ConsoleHarness.detail()
        let wrapped = try #require(harness.model.current.detail?.wrapped)
        #expect(wrapped.width == 80 && wrapped.lines.count == 8)
        harness.resize(columns: 62, rows: 24)
        let narrow = try #require(harness.model.current.detail?.wrapped)
        var fresh = try #require(harness.model.current.detail)
        let snapshot = fresh.snapshot
        fresh.snapshot = snapshot
        #expect(fresh.wrapped != nil, "the same value keeps its lines")
        fresh.snapshot = nil
        fresh.snapshot = snapshot
        #expect(fresh.wrapped == nil, "a new value drops them")
        #expect(narrow.width == 62 && narrow.lines == DetailScreen.valueLines(fresh, width: 62))
    }

    @Test func prettyJSONWrapsAtEightyColumns() {
        expectScreen(
            ConsoleHarness.detail(),
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products › product-0000
             Key         product-0000
             Namespace   products                    Version     v3
             Size        400 B (value 388 B)         Hits        0
             Created     37m ago                     Accessed    never
             Expires     in 3h                       Stale until in 4h
             Tags        featured
            ╭─ Value · JSON · lines 1–8 of 8 ──────────────────────────────────────────────╮
            │ {                                                                            │
            │   "id": 1000,                                                                │
            │   "key": "product-0000",                                                     │
            │   "name": "Trail running shoe, waterproof, with a long description that has  │
            │     to wrap across lines",                                                   │
            │   "price": { "amount": 129.9, "currency": "EUR" },                           │
            │   "tags": ["featured"]                                                       │
            │ }                                                                            │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             x hex  / search  d invalidate  y copy key  ? help       query 1.0 ms · frame –
            """#)
    }

    @Test func atOneTwentyByForty() {
        expectScreen(
            ConsoleHarness.detail(columns: 120, rows: 40),
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › products › product-0000                                1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             Key         product-0000
             Namespace   products                                        Version     v3
             Size        400 B (value 388 B)                             Hits        0
             Created     37m ago                                         Accessed    never
             Expires     in 3h                                           Stale until in 4h
             Tags        featured
            ╭─ Value · JSON · lines 1–7 of 7 ──────────────────────────────────────────────────────────────────────────────────────╮
            │ {                                                                                                                    │
            │   "id": 1000,                                                                                                        │
            │   "key": "product-0000",                                                                                             │
            │   "name": "Trail running shoe, waterproof, with a long description that has to wrap across lines",                   │
            │   "price": { "amount": 129.9, "currency": "EUR" },                                                                   │
            │   "tags": ["featured"]                                                                                               │
            │ }                                                                                                                    │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
             x hex  / search  d invalidate  y copy key  v pager  Esc back  : command  q quit  ? help         query 1.0 ms · frame –
            """#)
    }

    @Test func xSwitchesToAHexDumpAndBack() {
        var harness = ConsoleHarness.detail()
        harness.press(.character("x"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products › product-0000
             Key         product-0000
             Namespace   products                    Version     v3
             Size        400 B (value 388 B)         Hits        0
             Created     37m ago                     Accessed    never
             Expires     in 3h                       Stale until in 4h
             Tags        featured
            ╭─ Value · hex dump · lines 1–3 of 3 ──────────────────────────────────────────╮
            │00000000  7b 0a 20 20 22 69 64 22  3a 20 31 30 30 30 2c 0a  |{.  "id": 1000,.|│
            │00000010  20 20 22 6b 65 79 22 3a  20 22 70 72 6f 64 75 63  |  "key": "produc|│
            │… (the value is longer)                                                       │
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
             x text  / search  d invalidate  y copy key  ? help      query 1.0 ms · frame –
            """#)
        harness.press(.character("x"))
        #expect(harness.screen().contains("Value · JSON"))
    }

    @Test func anEntryRemovedMeanwhileSaysSo() {
        var harness = ConsoleHarness.detail()
        harness.source.change { $0["products"]?.removeFirst() }
        harness.wait(1000)
        #expect(harness.screen().contains("Value · JSON · gone since read"))
    }

    @Test func theValueScrolls() {
        var harness = ConsoleHarness.detail(columns: 60, rows: 16)
        harness.press(.down, .down)
        #expect(harness.screen().contains("lines 3–7 of 8"))
        harness.press(.character("G"))
        #expect(harness.screen().contains("lines 4–8 of 8"))
        harness.press(.character("g"))
        #expect(harness.screen().contains("lines 1–5 of 8"))
    }
}
