import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

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
    /// Seeds: 0..<3 normally, 0..<100 with full counts.
    static let seeds = FuzzCounts.seeds(ci: 3, full: 100)

    /// Terminal sizes a whole tour runs at: the classic, a large one, and the smallest the
    /// console lays out. Each tour also sweeps through other sizes, down to a single cell.
    static let sizes = [Size(columns: 80, rows: 24), Size(columns: 132, rows: 43), Size(columns: 60, rows: 16)]

    /// The tours of `seed`: normally one, at a size the seed picks, in Unicode glyphs (and
    /// ASCII too for every third seed); with full counts, one at every size in Unicode, at a
    /// random size as well, and ASCII too at the picked size of even seeds.
    static func tours(seed: UInt64) -> [(size: Size, glyphSets: [GlyphSet])] {
        let picked = sizes[Int(seed % UInt64(sizes.count))]
        guard FuzzCounts.isFull else { return [(picked, seed % 3 == 0 ? [.unicode, .ascii] : [.unicode])] }
        var random = SeededRandom(seed: seed)
        let extra = Size(
            columns: Int.random(in: 60...220, using: &random), rows: Int.random(in: 16...70, using: &random))
        return (sizes + [extra]).map { ($0, $0 == picked && seed % 2 == 0 ? [.unicode, .ascii] : [.unicode]) }
    }

    @Test(arguments: seeds)
    func everyScreenShowsHostileContentSafelyAndAligned(seed: UInt64) throws {
        // 12 to 42 entries a namespace: some seeds fit one screen, others scroll.
        let store = try HostileStore(seed: seed, entriesPerNamespace: 12 + Int(seed % 4) * 10)
        defer { try? store.store.close() }
        for (size, glyphSets) in Self.tours(seed: seed) {
            var tour = try HostileTour(store: store, seed: seed, size: size, glyphSets: glyphSets)
            tour.run()
            let unseen = HostileTour.screens.subtracting(tour.seen)
            #expect(unseen.isEmpty, "seed \(seed) at \(size.columns)×\(size.rows) never showed \(unseen.sorted())")
            for problem in tour.problems {
                Issue.record("\(problem) (CACHEDECK_SEED=\(seed) replays it)")
            }
        }
    }
}
