import Testing

@testable import CacheConsole

@Suite struct AuditAndHelpTests {
    @Test func theAuditLogListsActionsAndUndoesTheSelectedOne() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter, .character("d"), .character("y"))
        harness.press(.character("4"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products › audit log
            ╭─ Audit log ──────────────────────────────────────────────────────────────────╮
            │    #     when action                   entries     bytes undo       who      │
            │    1   0s ago invalidate key produc…         1     400 B can undo   ops@web-1│
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
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Invalidate products/product-0000: removed 1 entry (400 B). u undoes it.
            """#)
        harness.press(.character("u"))
        #expect(harness.screen().contains("Restored 1 entry (action #1)."))
        #expect(harness.screen().contains("restore #1"))
        harness.press(.down, .character("u"))
        #expect(harness.screen().contains("Action #1 was already undone."))
    }

    @Test func helpIsGeneratedFromTheLiveKeyMap() throws {
        let keys = try KeyMap(parsing: "quit = [\"ctrl-q\"]\ntoggleHex = \"X\"", source: "keys.toml")
        var harness = ConsoleHarness(columns: 120, rows: 40, settings: ConsoleSettings(keyMap: keys))
        harness.press(.character("?"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › help                                                   1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             Keys (rebind them in ~/.config/cachedeck/keys.toml)         Commands (: opens the command line, Tab completes)
              ↑, k          Move up                                       :ns NAME                     Open a namespace's entries
              ↓, j          Move down                                     :sweep [NAME]                Sweep expired entries
              PgUp, Ctrl-B  Page up                                       :clear NAME|all              Clear a namespace, or all
              PgDn, Ctrl-F  Page down                                     :invalidate tag=T [ns=N]     Invalidate a tag
              g, Home       First row                                     :invalidate prefix=P [ns=N]  Invalidate by key prefix
              G, End        Last row                                      :invalidate key=K [ns=N]     Invalidate one key
              Enter, →, l   Open the selection                            :undo                        Undo the last action
              Esc, ←, h     Back / close                                  :theme NAME                  Switch the colour theme
              -             Previous view                                 :refresh SECONDS             Set the refresh interval
              Tab           Next panel                                    :overview                    Go to the Overview
              Shift-Tab     Previous panel                                :timeline                    Show the expiry timeline
              /             Filter                                        :stats                       Show the statistics graphs
              :             Command line                                  :audit                       Show the audit log
              ?, F1         Help                                          :mouse                       Mouse on / off
              p             Pause / resume live updates                   :help                        Show keys and commands
              +             Refresh faster                                :q                           Quit
              _             Refresh slower
              Space         Mark / unmark
              V             Mark from the last mark to here
              *             Mark all matching / unmark all
              s             Sort by the next column
              S             Reverse the sort
              X             Hex dump / text
              1             Overview
              2, t          Expiry timeline
              3             Statistics
              4             Audit log
              W             Statistics window: 5 min, 1 h, 24 h
              d, Del        Invalidate selected / marked / matching
              D             Clear the namespace
              w             Sweep expired entries
              u             Undo the last action
              m             Mouse on / off
              Ctrl-L        Redraw the screen
              Ctrl-Q        Quit

             Esc back  : command  ? help  Ctrl-Q quit                                                        query 1.0 ms · frame –
            """#)
        harness.press(.control("q"))
        #expect(!harness.sideEffects.contains(.quit), "quit closes the help first")
        harness.press(.control("q"))
        #expect(harness.sideEffects.contains(.quit))
    }

    @Test func helpMarksActionsAsDisabledWhenReadOnly() {
        var harness = ConsoleHarness(source: FakeDataSource(isReadOnly: true))
        harness.press(.character("?"))
        harness.press(.pageDown)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                      READ-ONLY  live 1 s
             cache.sqlite › help
              +             Refresh faster
              _             Refresh slower
              Space         Mark / unmark
              V             Mark from the last mark to here
              *             Mark all matching / unmark all
              s             Sort by the next column
              S             Reverse the sort
              x             Hex dump / text
              1             Overview
              2, t          Expiry timeline
              3             Statistics
              4             Audit log
              W             Statistics window: 5 min, 1 h, 24 h
              d, Del        Invalidate selected / marked / matching (read-only: disabled)
              D             Clear the namespace (read-only: disabled)
              w             Sweep expired entries (read-only: disabled)
              u             Undo the last action (read-only: disabled)
              m             Mouse on / off
              Ctrl-L        Redraw the screen
              q             Quit

             Esc back  : command  ? help  q quit                     query 1.0 ms · frame –
            """#)
    }
}
