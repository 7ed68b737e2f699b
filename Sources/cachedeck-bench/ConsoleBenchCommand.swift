import ArgumentParser

/// `cachedeck-bench console`: the console's first frame, keypress-to-frame latency and
/// memory on a large cache file.
struct ConsoleBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Console first frame, keypress-to-frame p99 and resident memory on a large file."
    )

    @Option(help: "Entries in the main namespace (default 1000000).")
    var entries = 1_000_000

    @Option(help: "Average value size in bytes (default 1000: a 1M-entry file is about 1 GB).")
    var valueBytes = 1000

    @Option(help: "Keep the file here and reuse it when it exists (it takes a while to build).")
    var file: String?

    func validate() throws {
        if entries < 1000 { throw ValidationError("--entries must be at least 1000.") }
        if valueBytes < 10 { throw ValidationError("--value-bytes must be at least 10.") }
    }

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench-console")
        defer { directory.remove() }
        let path = file ?? directory.file("console.sqlite")
        try InspectorBenchmark(path: path, entries: entries, valueBytes: valueBytes, repeats: 1).prepareFile()
        print(try ConsoleBenchmark(path: path).run())
    }
}
