import ArgumentParser

/// `cachedeck-bench format`: the goals of the file format (issue 16) on one large file, each
/// as a measured figure with its goal and PASS/FAIL.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Sweeps, clears, purges, previews, sorts and counts on a large cache file, against the budgets in docs/ARCHITECTURE.md.",
        discussion: """
            Builds a file through the public API (batched sets of 1000): a namespace of --entries entries \
            of about 1 KB (tagged, varied TTLs, some expired), a second namespace of 1%, and as many expired \
            100-byte entries for the sweep. Then times each action as a console and an app see it, and checks \
            every count against what was written.
            """)

    @Option(help: "Entries of the main namespace (default 1000000, 100000 with --quick).")
    var entries: Int?

    @Flag(help: "A short run: 100,000 entries.")
    var quick = false

    func validate() throws {
        if let entries, entries < 10_000 { throw ValidationError("--entries must be at least 10000.") }
    }

    func run() throws {
        let settings = FormatSettings(entries: entries ?? (quick ? 100_000 : 1_000_000))
        let directory = try TemporaryDirectory(prefix: "cachedeck-format")
        defer { directory.remove() }
        print(settings.summary)
        print("Files in \(directory.path)\n")
        let report = try FormatBenchmark(settings: settings, path: directory.file("format.sqlite")).run()
        print(report.rendered())
    }
}

/// How much work `format` does.
struct FormatSettings {
    /// Entries of the main namespace (``FormatFilePlan/namespace``).
    let entries: Int
    /// Expired entries of the sweep's namespace.
    var sweepEntries: Int { entries }
    /// Entries of the second namespace, which no action targets.
    var otherEntries: Int { max(entries / 100, 1000) }
    /// Entries per batched set while building the file.
    let batchSize = 1000
    /// Timed repeats of a preview or a first page, after the first call (median taken).
    let repeats = 3
    /// Rows of a first page, as the console asks for.
    let pageSize = 50

    var summary: String {
        """
        cachedeck-bench format: \(entries) entries of 200–1,848 bytes (about \(entries / 1000) MB), \
        \(otherEntries) in a second namespace, \(sweepEntries) expired 100-byte entries to sweep; \
        previews and first pages: first call and median of \(repeats) repeats
        """
    }
}
