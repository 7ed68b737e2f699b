import ArgumentParser

/// The large cache file the `inspector` and `console` benchmarks run on.
struct LargeFileArguments: ParsableArguments {
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

    /// The file's path: `--file`, else `name` in `directory`.
    func path(in directory: TemporaryDirectory, name: String) -> String { file ?? directory.file(name) }
}
