import ArgumentParser

/// `cachedeck-bench maintenance`: what statistics cost on the read path, and what sweeps cost
/// the app while they run.
struct MaintenanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maintenance",
        abstract:
            "Get with statistics on vs off, sweep rate by batch size and time budget, and read/write "
            + "latency during a sweep vs without one."
    )

    @Option(help: "Expired entries the latency sweep removes (default 1000000, 100000 with --quick).")
    var entries: Int?

    @Flag(help: "A short run with fewer entries and rounds.")
    var quick = false

    @Flag(help: "Only the sweeps of --entries: alone (against the floor) and under the app's load.")
    var sweepsOnly = false

    func validate() throws {
        if let entries, entries < 10_000 { throw ValidationError("--entries must be at least 10000.") }
    }

    func run() throws {
        let settings = MaintenanceSettings(entries: entries, quick: quick)
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        print(settings.summary)
        print("Files in \(directory.path)\n")
        let report = try MaintenanceBenchmark(settings: settings, directory: directory).run(sweepsOnly: sweepsOnly)
        print(report.rendered())
    }
}
