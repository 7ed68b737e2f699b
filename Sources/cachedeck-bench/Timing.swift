/// Median-of-rounds timing of CacheCore against its baseline.
enum Timing {
    /// The median time per operation, in nanoseconds, of each side.
    struct Pair {
        let cacheCore: Double
        let baseline: Double
    }

    /// Runs one untimed warm-up round of each side, then `rounds` timed rounds, alternating
    /// which side goes first so drift (WAL growth, checkpoints, caches) hits both alike.
    /// Each body gets the round number (0 is the warm-up) so writes can use fresh keys.
    /// `operationsPerRound` is what one round's time is divided by (defaults to the plan's).
    static func compare(
        _ plan: RoundPlan, operationsPerRound: Int? = nil, cacheCore: (Int) throws -> Void,
        baseline: (Int) throws -> Void
    ) rethrows -> Pair {
        let operations = operationsPerRound ?? plan.perRound
        var cacheCoreTimes: [Double] = []
        var baselineTimes: [Double] = []
        for round in 0...plan.rounds {
            let first = round.isMultiple(of: 2)
            let a = try nanosecondsPerOperation(operations) { try (first ? cacheCore : baseline)(round) }
            let b = try nanosecondsPerOperation(operations) { try (first ? baseline : cacheCore)(round) }
            guard round > 0 else { continue }
            cacheCoreTimes.append(first ? a : b)
            baselineTimes.append(first ? b : a)
        }
        return Pair(cacheCore: median(cacheCoreTimes), baseline: median(baselineTimes))
    }

    /// Nanoseconds per operation of `body`, which performs `operations` operations.
    static func nanosecondsPerOperation(_ operations: Int, _ body: () throws -> Void) rethrows -> Double {
        let elapsed = try ContinuousClock().measure(body)
        return elapsed.nanoseconds / Double(max(operations, 1))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
