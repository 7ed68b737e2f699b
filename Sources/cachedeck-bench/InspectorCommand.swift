import ArgumentParser

/// `cachedeck-bench inspector`: Inspector latencies on a large cache file.
struct InspectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspector",
        abstract: "Inspector latencies (first pages per sort, summaries, timeline, top lists) on a large file."
    )

    @Option(help: "Entries in the main namespace (default 1000000).")
    var entries = 1_000_000

    @Option(help: "Average value size in bytes (default 1000: a 1M-entry file is about 1 GB).")
    var valueBytes = 1000

    @Option(help: "Timed calls per operation after the first (the median is reported).")
    var repeats = 5

    @Option(help: "Keep the file here and reuse it when it exists (it takes a while to build).")
    var file: String?

    func validate() throws {
        if entries < 1000 { throw ValidationError("--entries must be at least 1000.") }
        if valueBytes < 10 { throw ValidationError("--value-bytes must be at least 10.") }
        if repeats < 1 { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench-inspector")
        defer { directory.remove() }
        let path = file ?? directory.file("inspector.sqlite")
        let benchmark = InspectorBenchmark(path: path, entries: entries, valueBytes: valueBytes, repeats: repeats)
        try benchmark.prepareFile()
        print(try benchmark.run())
    }
}
