/// How much work `maintenance` does.
struct MaintenanceSettings {
    /// Expired entries the latency sweep removes.
    let sweepEntries: Int
    /// Expired entries each batch-size configuration sweeps per round.
    let tuningEntries: Int
    /// Rounds of the batch-size comparison (each configuration once per round).
    let tuningRounds: Int
    /// Live entries the reads (and the statistics comparison) use.
    let liveEntries: Int
    /// Point reads of the statistics on/off comparison.
    let reads: RoundPlan
    /// How long reads and writes are timed without a sweep, for the latency baseline.
    let quietSeconds: Double
    /// Bytes per value.
    let valueSize = 100
    /// Per-batch time budgets of the adaptive sweep, in milliseconds.
    let batchBudgets = [10, 25, 50, 100]
    /// Fixed batch sizes of the raw sweep.
    let fixedBatchSizes = [1000, 5000, 20_000]

    init(entries: Int?, quick: Bool) {
        sweepEntries = entries ?? (quick ? 100_000 : 1_000_000)
        tuningEntries = min(sweepEntries, quick ? 50_000 : 100_000)
        tuningRounds = quick ? 1 : 3
        liveEntries = quick ? 20_000 : 100_000
        reads = quick ? RoundPlan(rounds: 9, perRound: 10_000) : RoundPlan(rounds: 21, perRound: 20_000)
        quietSeconds = quick ? 1 : 2
    }

    var summary: String {
        """
        cachedeck-bench maintenance: \(liveEntries) live entries, \(valueSize)-byte values; statistics on/off: \
        median of \(reads.rounds) rounds × \(reads.perRound) reads; sweep tuning: \(tuningEntries) expired per \
        configuration × \(tuningRounds) rounds; latency: \(sweepEntries) expired swept under a reader and a paced writer
        """
    }
}
