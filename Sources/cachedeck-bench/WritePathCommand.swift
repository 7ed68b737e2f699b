import ArgumentParser

/// `cachedeck-bench writepath`: where a durable set's, a delete's and a batched set's time
/// goes — CacheCore, the same statements in C on CacheCore's file, and the floor — as CPU
/// time and WAL frames per operation, the frames split by the b-tree they belong to; then
/// the same writes, a point read and a scan on issue #26's candidate layouts, in C.
struct WritePathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writepath",
        abstract: "A write's CPU time and WAL pages: CacheCore vs its SQL in C vs the floor, triggers vs store counters, candidate layouts."
    )

    @Flag(help: "Fewer rounds.")
    var quick = false

    @Flag(help: "Only the candidate layouts of entries (issue #26), in C.")
    var layouts = false

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let benchmark = try WritePathBenchmark(directory: directory, rounds: quick ? 3 : 7)
        print(
            "cachedeck-bench writepath: median of \(benchmark.rounds) interleaved rounds of \(benchmark.perRound) "
                + "autocommit writes or \(benchmark.batchesPerRound) batches of 1000; CPU = user + system time "
                + "of the whole process; frames = WAL frames per write (after a truncating checkpoint)\n")
        if !layouts { try benchmark.run() }
        try benchmark.compareLayouts()
        print(benchmark.table)
    }
}
