/// How much work `core` does: sizes, and the rounds of each kind of row.
struct CoreSettings {
    /// Entries pre-populated for the get rows.
    let entries: Int
    /// Point reads (get hit / miss).
    let reads: RoundPlan
    /// Memory-tier hits and their `Dictionary` baseline (about 100 ns each: long rounds).
    let memoryReads: RoundPlan
    /// Single autocommit writes (set, remove): many short rounds, because one write costs
    /// tens of µs of I/O and the machine's I/O noise must hit both sides alike.
    let writes: RoundPlan
    /// Batched sets: each operation is one batch of ``batchSize`` entries.
    let batches: RoundPlan
    let batchSize = 1000
    /// Expired entries each side sweeps.
    let sweepEntries = 100_000
    /// Entries in the small and the large file of the open-time row.
    let smallFileEntries = 1000
    let largeFileEntries: Int
    /// Timed opens of each file.
    let opens = 20
    /// Bytes per value.
    let valueSize = 100

    init(entries: Int?, quick: Bool) {
        self.entries = entries ?? (quick ? 20_000 : 100_000)
        reads = quick ? RoundPlan(rounds: 5, perRound: 10_000) : RoundPlan(rounds: 11, perRound: 20_000)
        memoryReads = quick ? RoundPlan(rounds: 5, perRound: 200_000) : RoundPlan(rounds: 11, perRound: 500_000)
        writes = quick ? RoundPlan(rounds: 9, perRound: 500) : RoundPlan(rounds: 25, perRound: 1000)
        batches = quick ? RoundPlan(rounds: 9, perRound: 4) : RoundPlan(rounds: 15, perRound: 6)
        largeFileEntries = quick ? 100_000 : 1_000_000
    }

    var summary: String {
        """
        cachedeck-bench core: \(entries) entries, \(valueSize)-byte values; median of \(reads.rounds) rounds × \
        \(reads.perRound) reads, \(memoryReads.rounds) × \(memoryReads.perRound) memory hits, \(writes.rounds) × \(writes.perRound) writes, \(batches.rounds) × \
        \(batches.perRound) batches of \(batchSize); \(sweepEntries) swept; open \(smallFileEntries) vs \
        \(largeFileEntries) entries × \(opens)
        """
    }
}

/// Timed rounds of one row (after one untimed warm-up round) and the operations in each.
struct RoundPlan {
    let rounds: Int
    let perRound: Int

    /// Operations over the warm-up and all timed rounds.
    var total: Int { (rounds + 1) * perRound }

    /// The operation indices of `round` (0 is the warm-up).
    func range(_ round: Int) -> Range<Int> { round * perRound..<(round + 1) * perRound }
}
