import ArgumentParser

/// `cachedeck-bench console`: the console's first frame, keypress-to-frame latency and
/// memory on a large cache file.
struct ConsoleBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Console first frame, keypress-to-frame p99 and resident memory on a large file."
    )

    @OptionGroup var largeFile: LargeFileArguments

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench-console")
        defer { directory.remove() }
        let path = largeFile.path(in: directory, name: "console.sqlite")
        try InspectorBenchmark(
            path: path, entries: largeFile.entries, valueBytes: largeFile.valueBytes, repeats: 1
        ).prepareFile()
        print(try ConsoleBenchmark(path: path).run())
    }
}
