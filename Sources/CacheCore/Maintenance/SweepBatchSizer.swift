import Synchronization

/// The number of rows a sweep deletes per transaction, adapted so one batch takes about a
/// time budget: large enough to be efficient, small enough that the app's writes never wait
/// long. It starts at 1000 and learns from every full batch, for the life of the store.
final class SweepBatchSizer: Sendable {
    static let initial = 1000
    static let range = 100...50_000
    private let current = Atomic(SweepBatchSizer.initial)

    /// The size of the next batch.
    var size: Int { current.load(ordering: .relaxed) }

    /// Scales the size towards `budget` after a batch of `requested` rows that removed
    /// `removed` in `elapsed`. A partial batch (the namespace ran out) teaches only that a
    /// batch was too slow; each step changes the size by at most a factor of two.
    func learn(requested: Int, removed: Int, elapsed: Duration, budget: Duration) {
        let elapsedSeconds = Double(elapsed.nanosecondCount) / 1e9
        let budgetSeconds = Double(budget.nanosecondCount) / 1e9
        guard elapsedSeconds > 0, budgetSeconds > 0 else { return }
        let factor = min(2, max(0.5, budgetSeconds / elapsedSeconds))
        guard removed >= requested || factor < 1 else { return }
        let next = Int((Double(requested) * factor).rounded())
        current.store(min(Self.range.upperBound, max(Self.range.lowerBound, next)), ordering: .relaxed)
    }
}
