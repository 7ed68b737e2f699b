import CacheCore
import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct EntriesScreenTests {
    private func products(columns: Int = 80, rows: Int = 24) -> ConsoleHarness<FakeDataSource> {
        var harness = ConsoleHarness(columns: columns, rows: rows)
        harness.press(.down, .enter)
        return harness
    }

    @Test func atEightyByTwentyFour() {
        var harness = products()
        harness.press(.down, .down)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products
             products · 240 entries · row 3 of 240
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
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
        #expect(harness.rows(styled: .selection).first?.contains("product-0002") == true)
    }

    @Test func atOneTwentyByForty() {
        let harness = products(columns: 120, rows: 40)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › products                                               1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             products · 240 entries · row 1 of 240
            ╭─ Entries ────────────────────────────────────────────────────────────────────────────────────────────────────────────╮
            │  key ▲                                                      size   age   expires   hits   accessed tags              │
            │  product-0000                                              400 B   37m     in 3h      0      never featured          │
            │  product-0001                                              413 B    1h     in 6h      7    17s ago sale,summer       │
            │  product-0002                                              426 B    1h    in 10h     14    34s ago                   │
            │  product-0003                                              439 B    2h    in 13h     21    51s ago                   │
            │  product-0004                                              452 B    3h    in 16h     28     1m ago featured          │
            │  product-0005                                              465 B    3h    in 20h     35     1m ago sale,summer       │
            │  product-0006                                              478 B    4h    in 23h     42     1m ago                   │
            │  product-0007                                              491 B    4h   expired     49     1m ago                   │
            │  product-0008                                              504 B    5h     in 2h     56     2m ago featured          │
            │  product-0009                                              517 B    6h     never     63     2m ago sale,summer       │
            │  product-0010                                              530 B    6h     in 9h     70     2m ago                   │
            │  product-0011                                              543 B    7h    in 12h     77     3m ago                   │
            │  product-0012                                              556 B    8h    in 15h     84     3m ago featured          │
            │  product-0013                                              569 B    8h    in 19h     91     0s ago sale,summer       │
            │  product-0014                                              582 B    9h   expired      1    17s ago                   │
            │  product-0015                                              595 B    9h   expired      8    34s ago                   │
            │  product-0016                                              608 B   10h     in 1h     15    51s ago featured          │
            │  product-0017                                              621 B   11h     in 4h     22     1m ago sale,summer       │
            │  product-0018                                              634 B   11h     in 8h     29     1m ago                   │
            │  product-0019                                              647 B   12h     never     36     1m ago                   │
            │  product-0020                                              660 B   12h    in 15h     43     1m ago featured          │
            │  product-0021                                              673 B   13h   expired     50     2m ago sale,summer       │
            │  product-0022                                              686 B   14h   expired     57     2m ago                   │
            │  product-0023                                              699 B   14h   expired     64     2m ago                   │
            │  product-0024                                              712 B   15h    in 35m     71     3m ago featured          │
            │  product-0025                                              725 B   16h     in 3h     78     3m ago sale,summer       │
            │  product-0026                                              738 B   16h     in 7h     85     0s ago                   │
            │  product-0027                                              751 B   17h    in 10h     92    17s ago                   │
            │  product-0028                                              764 B   17h   expired      2    34s ago featured          │
            │  product-0029                                              777 B   18h     never      9    51s ago sale,summer       │
            │  product-0030                                              790 B   19h   expired     16     1m ago                   │
            │  product-0031                                              803 B   19h   expired     23     1m ago                   │
            │  product-0032                                              816 B   20h   expired     30     1m ago featured          │
            ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  d invalidate  Esc back  : command  q quit  ? help     query 1.0 ms · frame –
            """#)
    }

    @Test func sortByEveryColumnAndReverse() {
        var harness = products()
        var headers: [String] = []
        for _ in 0..<6 {
            harness.press(.character("s"))
            headers.append(harness.screen().split(separator: "\n")[4].trimmingCharacters(in: .whitespaces))
        }
        // Like the CLI: sizes and counts largest first, times most recent first.
        #expect(headers.map { $0.contains("▲") } == [false, true, true, false, true, true])
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.key)))
        harness.press(.character("s"))
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size, descending: true)))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products
             products · 240 entries · row 1 of 240
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key                        size ▼   age   expires   hits   accessed tags    │
            │  product-0069               1.3 kB   12h     never     95     1m ago sale,su…│
            │  product-0138               1.3 kB   24h   expired     93     2m ago         │
            │  product-0207               1.3 kB    4h    in 15h     91     3m ago         │
            │  product-0068               1.3 kB   11h    in 12h     88    51s ago featured│
            │  product-0137               1.3 kB   23h   expired     86     1m ago sale,su…│
            │  product-0206               1.3 kB    4h    in 11h     84     3m ago         │
            │  product-0067               1.3 kB   11h     in 8h     81    34s ago         │
            │  product-0136               1.3 kB   22h   expired     79     1m ago featured│
            │  product-0205               1.3 kB    3h     in 8h     77     2m ago sale,su…│
            │  product-0066               1.3 kB   10h     in 5h     74    17s ago         │
            │  product-0135               1.3 kB   22h   expired     72     1m ago         │
            │  product-0204               1.3 kB    3h     in 4h     70     2m ago featured│
            │  product-0065               1.2 kB    9h     in 2h     67     0s ago sale,su…│
            │  product-0134               1.2 kB   21h   expired     65     1m ago         │
            │  product-0203               1.2 kB    2h     in 1h     63     2m ago         │
            │  product-0064               1.2 kB    9h   expired     60     3m ago featured│
            │  product-0133               1.2 kB   20h   expired     58    51s ago sale,su…│
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
        harness.press(.character("S"))
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size)))
    }

    @Test func aFilterNarrowsTheRowsAndATypoKeepsTheFieldOpen() {
        var harness = products()
        harness.press(.character("/"))
        harness.type("siz>1")
        harness.press(.enter)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products /siz
             products · 240 entries · filter siz (0 matching)
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  No entry matches 'siz'.                                                     │
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
             Filter: unknown field 'siz' (fields: ttl, size, hits, age, expires, created)
            /siz>1
            """#)
        harness.press(.control("u"))
        harness.type("tag:featured size>1000")
        harness.press(.enter)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › products /tag:featured size>1000
             products · 240 entries · filter tag:featured size>1000 (17 matching) · row 1 …
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  product-0048               1.0 kB   30h   expired     45     2m ago featured│
            │  product-0052               1.1 kB    1h    in 14h     73     0s ago featured│
            │  product-0056               1.1 kB    4h   expired      4     1m ago featured│
            │  product-0060               1.2 kB    6h    in 13h     32     2m ago featured│
            │  product-0064               1.2 kB    9h   expired     60     3m ago featured│
            │  product-0068               1.3 kB   11h    in 12h     88    51s ago featured│
            │  product-0116               1.0 kB   10h     in 9h     36     3m ago featured│
            │  product-0120               1.1 kB   12h   expired     64    51s ago featured│
            │  product-0124               1.1 kB   15h     in 8h     92     1m ago featured│
            │  product-0128               1.2 kB   17h   expired     23     3m ago featured│
            │  product-0132               1.2 kB   20h     in 7h     51    34s ago featured│
            │  product-0136               1.3 kB   22h   expired     79     1m ago featured│
            │  product-0188               1.0 kB   24h     in 3h     55     1m ago featured│
            │  product-0192               1.1 kB   26h   expired     83     2m ago featured│
            │  product-0196               1.1 kB   28h   expired     14    17s ago featured│
            │  product-0200               1.2 kB   37m    in 19h     42     1m ago featured│
            │  product-0204               1.3 kB    3h     in 4h     70     2m ago featured│
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
    }

    @Test func aNewFilterDoesNotShowTheOldFiltersCountWhileItsOwnIsCounted() {
        var harness = products()
        harness.press(.character("/"))
        harness.type("tag:featured")
        harness.press(.enter)
        #expect(harness.screen().contains("filter tag:featured (60 matching)"))
        // A new filter, typed without carrying out the loads it asks for: its count is pending.
        let keys: [Key] = [.character("/"), .control("u")] + "size>1000".map(Key.character) + [.enter]
        for key in keys { _ = harness.controller.handle(.input(.key(key))) }
        #expect(harness.screen().contains("filter size>1000 (≥ 0 matching)"))
    }

    @Test func fastKeyRepeatLosesNoMoves() {
        let rows = (0..<3000).map { index in
            EntryInfo(
                id: .row(Int64(index + 1)), key: String(format: "k%05d", index), size: 10,
                createdAt: FakeDataSource.now, expiresAt: nil, lastAccessAt: FakeDataSource.now, hits: 0, tags: [])
        }
        var harness = ConsoleHarness(source: FakeDataSource(entries: ["big": rows]))
        harness.press(.character(":"))
        harness.type("ns big")
        harness.press(.enter)
        let page = EntriesScreen.listHeight(for: harness.controller.size) - 1
        // 40 PgDn before any page they ask for arrives, as when the key repeats faster than reads.
        var effects: [ConsoleEffect] = []
        for _ in 0..<40 { effects += harness.controller.handle(.input(.key(.pageDown))) }
        for effect in effects {
            if let message = EffectPerformer.perform(effect, on: harness.source) { harness.handle(message) }
        }
        #expect(harness.model.current.entries?.window.selection == 40 * page)
        #expect(harness.screen().contains(String(format: "k%05d", 40 * page)))
    }

    @Test func pagesOfAFilterTypedOverAreNoLongerWantedWhenTheirTurnComes() {
        var harness = products()
        var effects: [ConsoleEffect] = []
        for key in [.character("/")] + "size>1000".map(Key.character) + [.enter] {
            effects += harness.controller.handle(.input(.key(key)))
        }
        let pageLoads = effects.filter {
            guard case .load(let requests) = $0 else { return false }
            return requests.contains { $0.read is EntriesRead }
        }
        #expect(pageLoads.count > 1, "each keystroke asks for the first page of its filter")
        let kept = pageLoads.compactMap { harness.controller.stillWanted($0) }
        #expect(kept.count == 1 && kept.first == pageLoads.last, "only the last filter's page is still wanted")
        #expect(harness.controller.stillWanted(.refresh(loads: [.overview], force: false)) != nil)
    }

    @Test func marksOneARangeAndAllMatching() {
        var harness = products()
        harness.press(.character(" "), .down, .down, .character("V"))
        #expect(harness.screen().contains("4 marked"))
        harness.press(.character("*"))
        #expect(harness.screen().contains("all matching marked"))
        harness.press(.escape)
        #expect(harness.screen().contains("Marks cleared."))
        #expect(harness.model.views.count == 2, "Esc clears the marks before it goes back")
        harness.press(.escape)
        #expect(harness.model.views.count == 1)
    }

    @Test func gAndShiftGJumpBetweenTheEndsOfALargeNamespace() {
        let rows = (0..<20_000).map { index in
            EntryInfo(
                id: .row(Int64(index)), key: "k" + String(index + 100_000), size: 100,
                createdAt: FakeDataSource.now - 1000,
                expiresAt: nil, lastAccessAt: FakeDataSource.now, hits: 0, tags: [])
        }
        var harness = ConsoleHarness(source: FakeDataSource(entries: ["big": rows]))
        harness.press(.enter, .character("G"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › big
             big · 20,000 entries · row 20,000 of 20,000
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  k119983                     100 B    1s     never      0      never         │
            │  k119984                     100 B    1s     never      0      never         │
            │  k119985                     100 B    1s     never      0      never         │
            │  k119986                     100 B    1s     never      0      never         │
            │  k119987                     100 B    1s     never      0      never         │
            │  k119988                     100 B    1s     never      0      never         │
            │  k119989                     100 B    1s     never      0      never         │
            │  k119990                     100 B    1s     never      0      never         │
            │  k119991                     100 B    1s     never      0      never         │
            │  k119992                     100 B    1s     never      0      never         │
            │  k119993                     100 B    1s     never      0      never         │
            │  k119994                     100 B    1s     never      0      never         │
            │  k119995                     100 B    1s     never      0      never         │
            │  k119996                     100 B    1s     never      0      never         │
            │  k119997                     100 B    1s     never      0      never         │
            │  k119998                     100 B    1s     never      0      never         │
            │  k119999                     100 B    1s     never      0      never         │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
        harness.press(.pageUp, .up)
        #expect(harness.rows(styled: .selection).first?.contains("k119982") == true)
        harness.press(.character("g"))
        #expect(harness.rows(styled: .selection).first?.contains("k100000") == true)
        for _ in 0..<300 { harness.press(.pageDown) }
        #expect(harness.rows(styled: .selection).first?.contains("k104800") == true)
        #expect(harness.screen().contains("row 4,801 of 20,000"))
        let window = harness.model.current.entriesWindow
        #expect((window?.pages.filter { $0.rows != nil }.count ?? 99) <= EntriesWindow.keptPages)
    }

    @Test func theSelectionStaysOnItsEntryWhenRowsAreInsertedAbove() {
        var harness = products()
        harness.press(.down, .down, .down)
        #expect(harness.rows(styled: .selection).first?.contains("product-0003") == true)
        harness.source.change { namespaces in
            namespaces["products"]?.append(
                EntryInfo(
                    id: 1, key: "product-000", size: 10, createdAt: FakeDataSource.now, expiresAt: nil,
                    lastAccessAt: FakeDataSource.now, hits: 0, tags: []))
        }
        harness.wait(1000)
        #expect(harness.rows(styled: .selection).first?.contains("product-0003") == true)
        #expect(harness.screen().contains("row 5 of 241"))
    }

    @Test func hostileKeysAreShownAsVisibleEscapes() {
        var harness = ConsoleHarness()
        harness.press(.enter)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › hostile
             hostile · 6 entries · row 1 of 6
            ╭─ Entries ────────────────────────────────────────────────────────────────────╮
            │  key ▲                        size   age   expires   hits   accessed tags    │
            │  \e[31mred\e[0m               65 B    1h     never      1     1m ago \e]0;pw…│
            │  bell\x07and\ttab             67 B    1h     never      3     1m ago         │
            │  evil\u{202E}txt.exe          66 B    1h     never      2     1m ago         │
            │  été                          68 B    1h     never      4     1m ago         │
            │  商品-東京-😀                 64 B    1h     never      0      never         │
            │  👩‍👩‍👧 family                    69 B    1h     never      5     1m ago         │
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
             Enter open  / filter  s sort  Space mark  ? help        query 1.0 ms · frame –
            """#)
        harness.resize(columns: 120, rows: 40)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › hostile                                                1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             hostile · 6 entries · row 1 of 6
            ╭─ Entries ────────────────────────────────────────────────────────────────────────────────────────────────────────────╮
            │  key ▲                                                      size   age   expires   hits   accessed tags              │
            │  \e[31mred\e[0m                                             65 B    1h     never      1     1m ago \e]0;pwned\x07    │
            │  bell\x07and\ttab                                           67 B    1h     never      3     1m ago                   │
            │  evil\u{202E}txt.exe                                        66 B    1h     never      2     1m ago                   │
            │  été                                                        68 B    1h     never      4     1m ago                   │
            │  商品-東京-😀                                               64 B    1h     never      0      never                   │
            │  👩‍👩‍👧 family                                                  69 B    1h     never      5     1m ago                   │
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
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            │                                                                                                                      │
            ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
             Enter open  / filter  s sort  Space mark  d invalidate  Esc back  : command  q quit  ? help     query 1.0 ms · frame –
            """#)
        let cells = harness.controller.render().cellsText
        #expect(!cells.contains("\u{1B}") && !cells.contains("\u{202E}") && !cells.contains("\u{07}"))
    }
}

extension NavigationEntry {
    /// Whether this is an Entries view sorted by `sort`.
    func isEntries(sortedBy sort: EntrySort) -> Bool {
        entries?.sort == sort
    }

    /// The Entries view's window, if this is one.
    var entriesWindow: EntriesWindow? { entries?.window }
}

extension ScreenBuffer {
    /// Every cell's text, row after row.
    var cellsText: String {
        (0..<size.rows).map { cells(inRow: $0).map(\.text).joined() }.joined()
    }
}
