import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct TimelineAndStatisticsTests {
    @Test func theStoreTimelineAtEightyByTwentyFour() {
        var harness = ConsoleHarness()
        harness.press(.character("2"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › timeline
            ╭─ Expiry of all namespaces ───────────────────────────────────────────────────╮
            │expires         entries      bytes                                            │
            │expired              18     9.2 kB █████▋                                     │
            │< 1 min               2     1.1 kB ▋                                          │
            │1–5 min               7     3.9 kB ██▍                                        │
            │5 min–1 h            41    22.3 kB █████████████▌                             │
            │1 h–1 day           130    71.0 kB ███████████████████████████████████████████│
            │1–7 days             30    16.8 kB ██████████▏                                │
            │later                 0        0 B                                            │
            │never                24    14.0 kB ████████▌                                  │
            ╰──────────────────────────────────────────────────────────────────────────────╯
            ╭─ Next 48 hours · 219 entries, peak 25 per hour · coming hour: 3 ─────────────╮
            │                               █                                              │
            │                               █                                              │
            │       ▄         ▂      ▄      █                                              │
            │   ▅  ▁█  ▇  ▃   █  ▅  ▁█      █                                              │
            │  ▂█  ██ ▄█  █  ▆█ ▂█  ██      █                                              │
            │  ██ ▅██▁██ ██ ▃██ ██ ▅██      █                                              │
            │ ▇██▂██████▄██ ███▇██▂███      █                                              │
            │ ▲now        +12h        +24h        +36h                                     │
            ╰──────────────────────────────────────────────────────────────────────────────╯
             Enter entries  E next hour  Tab ranges/hours  ? help    query 1.0 ms · frame –
            """#)
    }

    @Test func aNamespaceTimelineAtOneTwentyByForty() {
        var harness = ConsoleHarness(columns: 120, rows: 40)
        harness.press(.down, .enter, .character("t"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › products › timeline of products                        1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
            ╭─ Expiry of products ─────────────────────────────────────────────────────────────────────────────────────────────────╮
            │expires         entries      bytes                                                                                    │
            │expired              18     9.2 kB ██████████▊                                                                        │
            │< 1 min               2     1.1 kB █▎                                                                                 │
            │1–5 min               7     3.9 kB ████▌                                                                              │
            │5 min–1 h            41    22.3 kB ██████████████████████████▏                                                        │
            │1 h–1 day           130    71.0 kB ███████████████████████████████████████████████████████████████████████████████████│
            │1–7 days             30    16.8 kB ███████████████████▋                                                               │
            │later                 0        0 B                                                                                    │
            │never                24    14.0 kB ████████████████▍                                                                  │
            ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
            ╭─ Next 48 hours · 219 entries, peak 25 per hour · coming hour: 3 ─────────────────────────────────────────────────────╮
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │                                                             █                                                        │
            │             ▆                                 ▆             █                                                        │
            │             █                   ▆             █             █                                                        │
            │             █     ▇             █             █             █                                                        │
            │     █       █     █             █     █       █             █                                                        │
            │     █     ▁ █     █     █       █     █     ▁ █             █                                                        │
            │     █     █ █     █     █     ▂ █     █     █ █             █                                                        │
            │     █     █ █   ▂ █     █     █ █     █     █ █             █                                                        │
            │   ▃ █     █ █   █ █     █     █ █   ▃ █     █ █             █                                                        │
            │   █ █     █ █   █ █   ▄ █     █ █   █ █     █ █             █                                                        │
            │   █ █   ▄ █ █   █ █   █ █     █ █   █ █   ▄ █ █             █                                                        │
            │   █ █   █ █ █   █ █   █ █   ▅ █ █   █ █   █ █ █             █                                                        │
            │   █ █   █ █ █ ▅ █ █   █ █   █ █ █   █ █   █ █ █             █                                                        │
            │ ▆ █ █   █ █ █ █ █ █   █ █   █ █ █ ▆ █ █   █ █ █             █                                                        │
            │ █ █ █   █ █ █ █ █ █ ▇ █ █   █ █ █ █ █ █   █ █ █             █                                                        │
            │ █ █ █ ▇ █ █ █ █ █ █ █ █ █   █ █ █ █ █ █ ▇ █ █ █             █                                                        │
            │ ▲now                    +12h                    +24h                    +36h                                         │
            ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
             Enter entries  E next hour  Tab ranges/hours  w sweep  Esc back  : command  q quit  ? help      query 1.0 ms · frame –
            """#)
    }

    @Test func statisticsAtEightyByTwentyFour() {
        var harness = ConsoleHarness()
        harness.press(.character("3"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                 live 1 s
             cache.sqlite › statistics of all, last 5 min
             Last 5 min: 20,000 reads · 1,800 misses · 40 evicted · 7 expired · 4 load fail…
            ╭─ Namespaces ───────╮╭─ Hit rate · scale 50–100 % · now 87.0% · peak 88.5% ───╮
            │ (all)              ││ 100.0%        ⣀       ⣀       ⣀       ⣀       ⣀       ⣀│
            │ hostile            ││  75.0%     ⣤⣶⣿⣿  ⢀⣀⣤⣶⣿⣿  ⢀⣀⣤⣶⣿⣿  ⢀⣀⣤⣶⣿⣿  ⢀⣀⣤⣶⣿⣿  ⢀⣀⣤⣶⣿⣿│
            │ products           ││  50.0%     ⣿⣿⣿⣿⣴⣾⣿⣿⣿⣿⣿⣿⣴⣾⣿⣿⣿⣿⣿⣿⣴⣾⣿⣿⣿⣿⣿⣿⣴⣾⣿⣿⣿⣿⣿⣿⣴⣾⣿⣿⣿⣿⣿⣿│
            │ sessions           ││        -5m     -4m      -3m       -2m      -1m      now│
            │                    │╰────────────────────────────────────────────────────────╯
            │                    │╭─ Operations per second · now 2,920/s · peak 3,780/s ───╮
            │                    ││  3,780 ⢀⣆⢀⣆⢀⣇⢠⣧⢠⢠⢠⢠⢰⢰⣰ ⣰⢀⣸⢀⣼⣀⡄⣀⡄⣠⡄⣠⡆⡄⡆⡄⡆⡄⡇⣆⢀⣆⢀⣆⢀⣇⢠⣧⢠⢠⢠⢠│
            │                    ││  1,890 ⣼⣿⣾⣿⣾⣿⣾⣿⣿⣾⣿⣾⣿⣾⣿⣿⣿⣿⣿⣿⣿⣿⣧⣿⣷⣿⣷⣿⣷⣿⣿⣿⣿⣿⣿⣿⣼⣿⣾⣿⣾⣿⣾⣿⣿⣾⣿⣾│
            │                    ││      0 ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        -5m     -4m      -3m       -2m      -1m      now│
            │                    │╰────────────────────────────────────────────────────────╯
            │                    │╭─ Evictions per second · now 0/s · peak 80/s ───────────╮
            │                    ││     80 ⡇           ⡇           ⡇           ⡇           │
            │                    ││        ⡇           ⡇           ⡇           ⡇           │
            │                    ││     40 ⡇           ⡇           ⡇           ⡇           │
            │                    ││        ⡇           ⡇           ⡇           ⡇           │
            │                    ││      0 ⡇           ⡇           ⡇           ⡇           │
            │                    ││        -5m     -4m      -3m       -2m      -1m      now│
            ╰────────────────────╯╰────────────────────────────────────────────────────────╯
             Enter entries  W window  Tab panel  Esc back  ? help    query 1.0 ms · frame –
            """#)
    }

    @Test func statisticsOfANamespaceOverAnHourAtOneTwentyByForty() {
        var harness = ConsoleHarness(columns: 120, rows: 40)
        harness.press(.character("3"), .down, .down, .character("W"))
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  ● 1 live app                                                                         live 1 s
             cache.sqlite › statistics of products, last 1 h                       1 Overview  2 Timeline  3 Stats  4 Audit  ? Help
             Last 1 h: 12,000 reads · 1,080 misses · 24 evicted · 7 expired · 4 load failures · 1,680/s ops
            ╭─ Namespaces ───────╮╭─ Hit rate · scale 50–100 % · now 87.0% · peak 88.5% ───────────────────────────────────────────╮
            │ (all)              ││ 100.0%                                                                                         │
            │ hostile            ││                                                                                                │
            │ products           ││                    ⢠⣴⣿            ⢠⣶⡇            ⣤⣾            ⢠⣴⣿            ⢠⣶⡇            ⣤⣾│
            │ sessions           ││                  ⣠⣶⣿⣿⣿         ⢀⣤⣾⣿⣿⡇         ⣀⣴⣾⣿⣿          ⣠⣶⣿⣿⣿         ⢀⣤⣾⣿⣿⡇         ⣀⣴⣾⣿⣿│
            │                    ││  75.0%        ⢠⣴⣿⣿⣿⣿⣿⣿      ⢀⣤⣾⣿⣿⣿⣿⣿⡇      ⣀⣴⣾⣿⣿⣿⣿⣿       ⣠⣴⣿⣿⣿⣿⣿⣿      ⢀⣤⣾⣿⣿⣿⣿⣿⡇      ⣀⣴⣾⣿⣿⣿⣿⣿│
            │                    ││               ⢸⣿⣿⣿⣿⣿⣿⣿   ⢀⣠⣶⣿⣿⣿⣿⣿⣿⣿⣿⡇   ⣀⣴⣾⣿⣿⣿⣿⣿⣿⣿⣿    ⣠⣴⣿⣿⣿⣿⣿⣿⣿⣿⣿   ⢀⣠⣶⣿⣿⣿⣿⣿⣿⣿⣿⡇   ⣀⣴⣾⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││               ⢸⣿⣿⣿⣿⣿⣿⣿ ⢀⣤⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⡇ ⣀⣼⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿ ⢀⣠⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿ ⢀⣤⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⡇ ⣀⣼⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││               ⢸⣿⣿⣿⣿⣿⣿⣿⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣷⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣶⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣷⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││  50.0%        ⢸⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        -1h                -45m                  -30m                  -15m                  now│
            │                    │╰────────────────────────────────────────────────────────────────────────────────────────────────╯
            │                    │╭─ Operations per second · now 1,752/s · peak 2,268/s ───────────────────────────────────────────╮
            │                    ││  2,268  ⢀⡀  ⢠   ⣶  ⢸⡇⣀   ⡄  ⢰   ⣿⢀⡀  ⢠   ⡆  ⢸⡇⣀   ⡄  ⢠   ⣶    ⣀   ⡄  ⢰⡆   ⢀⡀  ⢠   ⣶  ⢸⡇⣀   ⡄  ⢰│
            │                    ││         ⢸⡇⣤ ⢸ ⡆ ⣿⢸ ⣸⡇⣿⢠⡄ ⡇⢰ ⢸ ⡇⢀⣿⢸⡇⣤ ⢸ ⡆ ⡇⢸ ⣸⡇⣿⢠⡄ ⡇⣤ ⢸ ⡆ ⣿⢸⡇⣀ ⣿⢠⡄ ⡇⢰ ⢸⡇⣿⢀ ⢸⡇⣤ ⢸ ⡆ ⣿⢸ ⣸⡇⣿⢠⡄ ⡇⢰ ⢸│
            │                    ││         ⣼⡇⣿⢰⣾ ⡇⢸⣿⣸ ⣿⣧⣿⢸⡇⣶⡇⢸ ⣿⣀⡇⢸⣿⣼⡇⣿⢰⣾ ⡇⣿⣇⣸ ⣿⣧⣿⢸⡇⣤⡇⣿⢰⣾ ⡇⢸⣿⣸⡇⣿⢠⣿⢸⡇⣶⡇⢸ ⣿⣇⣿⢸ ⣼⡇⣿⢰⣾ ⡇⢸⣿⣸ ⣿⣧⣿⢸⡇⣶⡇⢸ ⣿│
            │                    ││         ⣿⣷⣿⢸⣿⣿⣇⣸⣿⣿⣤⣿⣿⣿⣾⡇⣿⣿⣿⣀⣿⣿⣧⣼⣿⣿⣷⣿⢸⣿⣿⣇⣿⣿⣿⣤⣿⣿⣿⣼⡇⣿⣷⣿⢸⣿⣿⣇⣸⣿⣿⣧⣿⢸⣿⣾⡇⣿⣿⣿⣀⣿⣿⣿⣼ ⣿⣷⣿⢸⣿⣿⣇⣸⣿⣿⣤⣿⣿⣿⣾⡇⣿⣿⣿⣀⣿│
            │                    ││  1,134 ⣶⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣷⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣾⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣶⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││      0 ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│
            │                    ││        -1h                -45m                  -30m                  -15m                  now│
            │                    │╰────────────────────────────────────────────────────────────────────────────────────────────────╯
            │                    │╭─ Evictions per second · now 0/s · peak 48/s ───────────────────────────────────────────────────╮
            │                    ││     48 ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││     24 ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││      0 ⣿                     ⣿                     ⣿                     ⣿                     │
            │                    ││        -1h                -45m                  -30m                  -15m                  now│
            ╰────────────────────╯╰────────────────────────────────────────────────────────────────────────────────────────────────╯
             Enter entries  W window  Tab panel  Esc back  : command  q quit  ? help                         query 1.0 ms · frame –
            """#)
        harness.press(.character("W"), .character("W"))
        #expect(harness.screen().contains("statistics of products, last 5 min"))
    }

    @Test func statisticsInASCII() {
        var harness = ConsoleHarness()
        harness.press(.character("3"), .tab)
        expectScreen(
            harness,
            #"""
             CacheDeck  cache.sqlite  + 1 live app                                 live 1 s
             cache.sqlite > statistics of all, last 5 min
             Last 5 min: 20,000 reads - 1,800 misses - 40 evicted - 7 expired - 4 load fa...
            +- Namespaces -------++- Hit rate - scale 50–100 % - now 87.0% - peak 88.5% ---+
            | (all)              || 100.0%        .       .       .       .       .       .|
            | hostile            ||  75.0%     :::#  ..:::#  ..:::#  ..:::#  ..:::#  ..:::#|
            | products           ||  50.0%     ####::######::######::######::######::######|
            | sessions           ||        -5m     -4m      -3m       -2m      -1m      now|
            |                    |+--------------------------------------------------------+
            |                    |+- Operations per second - now 2,920/s - peak 3,780/s ---+
            |                    ||  3,780  . ..:.:....... :.:.:.............:. . ..:.:....|
            |                    ||  1,890 :#:#################################:#:#########|
            |                    ||      0 ################################################|
            |                    ||        -5m     -4m      -3m       -2m      -1m      now|
            |                    |+--------------------------------------------------------+
            |                    |+- Evictions per second - now 0/s - peak 80/s -----------+
            |                    ||     80                                                 |
            |                    ||                                                        |
            |                    ||     40 .           .           .           .           |
            |                    ||        #           #           #           #           |
            |                    ||      0 #           #           #           #           |
            |                    ||        -5m     -4m      -3m       -2m      -1m      now|
            +--------------------++--------------------------------------------------------+
             Enter entries  W window  Tab panel  Esc back  ? help    query 1.0 ms · frame –
            """#, glyphs: .ascii)
    }

    @Test func switchingBetweenAuxiliaryViewsDoesNotStackThem() {
        var harness = ConsoleHarness()
        harness.press(.character("2"), .character("3"), .character("4"), .character("?"), .character("3"))
        #expect(harness.model.views.count == 2)
        harness.press(.escape)
        #expect(harness.model.views.count == 1)
        harness.press(.backspace)
        #expect(harness.model.views.count == 2, "Backspace returns to the view before")
    }
}
