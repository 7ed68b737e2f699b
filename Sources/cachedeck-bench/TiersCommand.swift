import ArgumentParser

/// `cachedeck-bench tiers`: hybrid reads and writes, and coherence delay.
struct TiersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiers",
        abstract: "Hybrid tiers vs the file-only tier and durable sets; coherence delay."
    )

    @Flag(help: "A short run with fewer operations and rounds.")
    var quick = false

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let benchmark = try TiersBenchmark(quick: quick, directory: directory)
        print(benchmark.summary + "\n")
        print(try benchmark.run().rendered())
    }
}
