// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CacheDeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CacheCore", targets: ["CacheCore"]),
        .library(name: "CacheCoreRedis", targets: ["CacheCoreRedis"]),
        .library(name: "CacheCoreService", targets: ["CacheCoreService"]),
        .executable(name: "cachedeck", targets: ["cachedeck"]),
        .executable(name: "cachedeck-bench", targets: ["cachedeck-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // hiredis, Redis' C client: only Sources/CacheCoreRedis/Client calls it. Linked by its
        // module map: hiredis.pc's cflags carry -D_FILE_OFFSET_BITS=64, a flag SwiftPM refuses.
        .systemLibrary(
            name: "CHiredis",
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),
        // The SQLite cache apps link: SQLite, swift-log and swift-metrics, nothing else.
        .target(
            name: "CacheCore",
            dependencies: [
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The same API on a Redis server (RedisStore), its admin, inspection and keyspace
        // browser; what it needs of CacheCore is `package` API.
        .target(
            name: "CacheCoreRedis",
            dependencies: ["CacheCore", "CHiredis"]
        ),
        // Caches other libraries write (python-diskcache, requests-cache, Django, Solid Cache,
        // Laravel, URLCache, entity_cache), read and purged through CacheCore's `package` SQLite layer.
        .target(
            name: "ForeignCaches",
            dependencies: ["CacheCore"]
        ),
        // A private redis-server on a free loopback port, for the tests and `cachedeck-bench redis`.
        .target(name: "LocalRedis"),
        // CacheCore's maintenance and telemetry as a swift-service-lifecycle `Service`.
        .target(
            name: "CacheCoreService",
            dependencies: [
                "CacheCore",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "cachedeck",
            dependencies: [
                "CacheCore",
                "CacheCoreRedis",
                "CacheConsole",
                "ForeignCaches",
                "TerminalUI",
                "CursesTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `cachedeck metrics`: the Prometheus text format (its HTTP server is a few
                // lines of sockets, in Sources/cachedeck/Metrics).
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "cachedeck-bench",
            dependencies: [
                "CacheCore",
                "CacheCoreRedis",
                "CacheConsole",
                "ForeignCaches",
                "TerminalUI",
                "CSQLite",
                // `cachedeck-bench redis` starts a private redis-server.
                "LocalRedis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "cachedeck-testhelper",
            dependencies: ["CacheCore", "CacheCoreRedis", "CacheDeckTestSupport"],
            path: "Tests/Helper"
        ),
        // Bad files (not a database, truncated, unreadable, …) and running programs as a user
        // that file permissions apply to, shared by the library and the CLI tests.
        .target(
            name: "CacheDeckTestSupport",
            dependencies: ["CacheCore", "CSQLite", "LocalRedis"],
            path: "Tests/Support"
        ),
        .testTarget(
            name: "CacheCoreTests",
            dependencies: [
                "CacheCore",
                "CSQLite",
                "CacheCoreRedis",
                "LocalRedis",
                "CacheCoreService",
                "CacheDeckTestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The README's code examples, verbatim inside functions: they must compile.
        .testTarget(
            name: "ReadmeExamplesTests",
            dependencies: [
                "CacheCore",
                "CacheCoreRedis",
                "CacheCoreService",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The console: TerminalUI (screen buffer, cells, text width, keys, themes, the Terminal
        // protocol) under both CursesTerminal (curses I/O) and CacheConsole (controllers and
        // views; no terminal I/O, no SQL). See docs/ARCHITECTURE.md for the layers.
        // Linked by its module map (ncursesw, tinfo): ncursesw.pc's cflags (-D_XOPEN_SOURCE=600,
        // -D_DEFAULT_SOURCE) are flags SwiftPM refuses with a warning; the shim defines them.
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncursesw5-dev"]), .brew(["ncurses"])]
        ),
        .target(
            name: "TerminalUI",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(
            name: "CacheConsole",
            dependencies: [
                "CacheCore", "CacheCoreRedis", "ForeignCaches", "TerminalUI", .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .target(
            name: "CursesTerminal",
            dependencies: ["CNCurses", "TerminalUI"]
        ),
        .executableTarget(
            name: "cachedeck-terminalprobe",
            dependencies: ["CursesTerminal", "TerminalUI"],
            path: "Tests/TerminalProbe"
        ),
        .testTarget(
            name: "CacheConsoleTests",
            dependencies: ["CacheConsole", "TerminalUI", "CacheCore", "CacheCoreRedis", "CacheDeckTestSupport"]
        ),
        .testTarget(
            name: "CursesTerminalTests",
            dependencies: ["CacheDeckTestSupport"]
        ),
        // Runs the built `cachedeck` binary on small files (build every product first, as
        // `swift test` does).
        .testTarget(
            name: "CacheDeckCLITests",
            dependencies: [
                "CacheCore", "CacheCoreRedis", "CacheDeckTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Foreign caches: files the real libraries write (PyPI, in a virtual environment) and
        // files built from the published schemas.
        .testTarget(
            name: "ForeignCachesTests",
            dependencies: ["ForeignCaches", "CacheCore", "CacheDeckTestSupport"]
        ),
        // Runs the built `cachedeck` binary under tmux (skipped without tmux).
        .testTarget(
            name: "ConsoleEndToEndTests",
            dependencies: ["CacheCore", "CacheCoreRedis", "CacheDeckTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
