import Testing

@testable import CacheConsole
import TerminalUI

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
        #expect(harness.screen().contains("Restored 1 entry of action #1."))
        #expect(harness.screen().contains("restore #1"))
        harness.press(.down, .character("u"))
        #expect(harness.screen().contains("Action #1 was already undone."))
    }

    @Test func theSelectionStaysOnItsActionWhenAnUndoAddsARowAbove() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter, .character("d"), .character("y"), .down, .character("d"), .character("y"))
        harness.press(.character("4"), .down)
        #expect(harness.screen().contains("Invalidate"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("Restored 1 entry of action #1."))
        // The restore row (#3) is now on top; the cursor is still on #1, so a second u is about #1.
        harness.press(.character("u"))
        #expect(harness.screen().contains("Action #1 was already undone."))
        let rows = harness.model.views.last?.view as? AuditView
        #expect(rows?.entries?.first { $0.id == 2 }?.isUndone == false, "the second u undid #2")
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
             Everywhere (rebind keys in ~/.config/cachedeck/keys.toml)   Commands (:, Tab completes, ↑/↓ recall)
              ?, F1         Help (again: close it)                        :ns NAME                     Open a namespace's entries
              :             Command line                                  :sweep [NAME]                Sweep expired entries
              Esc, ←, h     Back / close                                  :clear NAME|all              Clear a namespace, or all
              Backspace     Previous view                                 :invalidate tag=T [ns=N]     Invalidate a tag
              1             Overview                                      :invalidate prefix=P [ns=N]  Invalidate by key prefix
              2, t          Expiry timeline (of the namespace in view)    :invalidate key=K [ns=N]     Invalidate one key
              3             Statistics (of the namespace in view)         :ttl now|never|1h|+30m       New expiry: selected, marked…
              4             Audit log                                     :ttl CHANGE tag=T [ns=N]     New expiry for a tag (or pre…
              M             Message log (every result and error of this…  :expire [tag=T] [ns=N]       Expire now: selected, marked…
              p             Pause / resume live updates                   :export FILE                 Marked, filtered or all entr…
              F             Freeze / unfreeze the order: rows stay put,…  :export FILE ns=N [filter]   A namespace's (matching) ent…
              +, =          Refresh faster                                :export! FILE …              Export, replacing FILE if it…
              -, _          Refresh slower                                :import FILE [NAME]          Import what an export wrote …
              u             Undo the last action                          :compact                     Give free pages back to disk
              m             Mouse on / off                                :undo                        Undo the last action
              Ctrl-L        Redraw the screen                             :theme NAME                  Switch the colour theme
              Ctrl-Q        Quit (closes the help first)                  :refresh SECONDS             Set the refresh interval
             In lists                                                     :overview                    Go to the Overview
              ↑, k          Move up                                       :timeline                    Show the expiry timeline
              ↓, j          Move down                                     :stats                       Show the statistics graphs
              PgUp, Ctrl-B  Page up                                       :audit                       Show the audit log
              PgDn, Ctrl-F  Page down                                     :mouse                       Mouse on / off
              g, Home       First row                                     :help                        Show keys and commands
              G, End        Last row                                      :q                           Quit
             Overview
              Enter, →, l   Open the selected namespace
              E             Entries of the selected namespace that expi…
              s             Sort by the next column
              S             Reverse the sort
              o             Sort by a column you pick
              Tab           Switch between namespaces and processes
              Shift-Tab     Switch between namespaces and processes
              w             Sweep expired entries of the store
              D             Clear the selected namespace
             Entries
              Enter, →, l   Open the selected entry
             Esc back  : command  Ctrl-Q quit  ? help                                                        query 1.0 ms · frame –
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
              Ctrl-L        Redraw the screen
              q             Quit (closes the help first)
             In lists
              ↑, k          Move up
              ↓, j          Move down
              PgUp, Ctrl-B  Page up
              PgDn, Ctrl-F  Page down
              g, Home       First row
              G, End        Last row
             Overview
              Enter, →, l   Open the selected namespace
              E             Entries of the selected namespace that expire in the coming hour
              s             Sort by the next column
              S             Reverse the sort
              o             Sort by a column you pick
              Tab           Switch between namespaces and processes
              Shift-Tab     Switch between namespaces and processes
              w             Sweep expired entries of the store (read-only: disabled)
              D             Clear the selected namespace (read-only: disabled)
             Entries
              Enter, →, l   Open the selected entry
             Esc back  : command  q quit  ? help                     query 1.0 ms · frame –
            """#)
    }
}
