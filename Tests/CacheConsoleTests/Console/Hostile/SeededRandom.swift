import CacheCore

/// The package's reproducible generator: the same seed gives the same sequence on every
/// platform and run, so a failing seed can be replayed.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// `true` with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }

    /// A random element of `items` (which must not be empty).
    mutating func pick<T>(_ items: [T]) -> T {
        items[Int.random(in: 0..<items.count, using: &self)]
    }
}
