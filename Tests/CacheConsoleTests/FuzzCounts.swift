import Foundation

/// How much the fuzz-style tests do: small counts by default, so CI stays fast, and the full
/// counts when the environment sets `CACHEDECK_FULL_COUNTS=1`. `CACHEDECK_SEED=N` runs that
/// one seed only (to reproduce a failure, whose message names its seed).
enum FuzzCounts {
    /// Whether `CACHEDECK_FULL_COUNTS=1` asks for the full counts.
    static let isFull = ProcessInfo.processInfo.environment["CACHEDECK_FULL_COUNTS"] == "1"

    /// `ci` normally, `full` under `CACHEDECK_FULL_COUNTS=1`.
    static func count(ci: Int, full: Int) -> Int {
        isFull ? full : ci
    }

    /// The seeds to run: `CACHEDECK_SEED` alone when set, else `0..<count(ci:full:)`.
    static func seeds(ci: Int, full: Int) -> [UInt64] {
        if let text = ProcessInfo.processInfo.environment["CACHEDECK_SEED"], let seed = UInt64(text) { return [seed] }
        return (0..<UInt64(count(ci: ci, full: full))).map { $0 }
    }
}
