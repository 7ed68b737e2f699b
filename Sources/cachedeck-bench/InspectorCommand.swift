import ArgumentParser

/// `cachedeck-bench inspector`: Inspector latencies on a large cache file.
struct InspectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspector",
        abstract: "Inspector latencies (first pages per sort, summaries, timeline, top lists) on a large file."
    )

    @OptionGroup var largeFile: LargeFileArguments

    @Option(help: "Timed calls per operation after the first (the median is reported).")
    var repeats = 5

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench-inspector")
        defer { directory.remove() }
        let benchmark = InspectorBenchmark(
            path: largeFile.path(in: directory, name: "inspector.sqlite"), entries: largeFile.entries,
            valueBytes: largeFile.valueBytes, repeats: repeats)
        try benchmark.prepareFile()
        print(try benchmark.run())
    }
}
