import ArgumentParser

/// `cachedeck-bench core`: CacheCore against the floor (raw SQLite on the least table a cache
/// needs) and its memory tier against a `Dictionary` behind a `Mutex`.
struct CoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core",
        abstract: "CacheCore vs raw SQLite C calls on a minimal table, and its memory tier vs a locked Dictionary."
    )

    @Option(help: "Entries pre-populated for the read benchmarks (default 100000, 20000 with --quick).")
    var entries: Int?

    @Flag(help: "A short run (about 20 s) with fewer entries, operations and rounds.")
    var quick = false

    func validate() throws {
        if let entries, entries < 1000 { throw ValidationError("--entries must be at least 1000.") }
    }

    func run() throws {
        let settings = CoreSettings(entries: entries, quick: quick)
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        print(settings.summary)
        print("Files in \(directory.path)\n")
        let report = try CoreBenchmark(settings: settings, directory: directory).run()
        print(report.rendered())
    }
}
