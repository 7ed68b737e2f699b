import CacheCore
import Foundation
import Testing

@testable import CacheConsole

/// Hostile content end to end through the console: a real cache file filled from a seed with
/// escape sequences, bidi overrides, invisible and combining characters, wide text, controls,
/// invalid UTF-8, 100 KB keys and hostile JSON (see ``HostileStore``), read through the real
/// ``StoreDataSource`` and walked screen by screen at several terminal sizes (see
/// ``HostileTour``). Every frame must keep every control character out of its cells and
/// every row and table column aligned.
///
/// A few seeds run by default; `CACHEDECK_FULL_COUNTS=1` runs many more, and
/// `CACHEDECK_SEED=N` replays the seed a failure names.
@Suite struct HostileContentTests {
    /// Seeds: 0..<3 normally, 0..<150 with full counts.
    static let seeds = FuzzCounts.seeds(ci: 3, full: 150)

    /// Terminal sizes a whole tour runs at: the classic, a large one, and the smallest the
    /// console lays out. Each tour also sweeps through other sizes, down to a single cell.
    static let sizes = [Size(columns: 80, rows: 24), Size(columns: 132, rows: 43), Size(columns: 60, rows: 16)]

    /// The tours of `seed`: normally one, at a size chosen by the seed, in Unicode and (odd
    /// seeds) ASCII glyphs; with full counts, every size in both and a random size too.
    static func tours(seed: UInt64) -> [(size: Size, glyphSets: [GlyphSet])] {
        guard FuzzCounts.isFull else {
            return [(sizes[Int(seed % UInt64(sizes.count))], seed % 2 == 1 ? [.unicode, .ascii] : [.unicode])]
        }
        var random = SeededRandom(seed: seed)
        let extra = Size(
            columns: Int.random(in: 60...220, using: &random), rows: Int.random(in: 16...70, using: &random))
        return (sizes + [extra]).map { ($0, [.unicode, .ascii]) }
    }

    @Test(arguments: seeds)
    func everyScreenShowsHostileContentSafelyAndAligned(seed: UInt64) throws {
        let store = try HostileStore(seed: seed, entriesPerNamespace: 12)
        defer { try? store.store.close() }
        for (size, glyphSets) in Self.tours(seed: seed) {
            var tour = try HostileTour(store: store, seed: seed, size: size, glyphSets: glyphSets)
            tour.run()
            #expect(
                tour.seen.isSuperset(of: HostileTour.screens), "unseen: \(HostileTour.screens.subtracting(tour.seen))")
            for problem in tour.problems {
                Issue.record("\(problem) (CACHEDECK_SEED=\(seed) replays it)")
            }
        }
    }
}
