import CacheDeckTestSupport
import Foundation
import Testing

/// Issue 25 in the real console: the figures beside the hit rate, the scaled hit-rate graph,
/// the drill-down from the timeline and the frozen order.
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"), .serialized)
struct HitRateReasonsEndToEndTests {
    let demoFolder: DemoFolder

    init() throws {
        demoFolder = try DemoFolder()
    }

    /// The entries count on the timeline row named `name`.
    private func count(ofRange name: String, in pane: String) -> Int? {
        guard let line = pane.split(separator: "\n").first(where: { $0.hasPrefix("│\(name) ") }) else { return nil }
        return line.dropFirst(name.count + 1).split(separator: " ").first.flatMap { Int($0.replacing(",", with: "")) }
    }

    @Test func whyDrillDownAndFreezeEndToEnd() throws {
        let path = try demoFolder.demo()
        defer { try? FileManager.default.removeItem(atPath: demoFolder.path) }
        let tmux = try Tmux(columns: 100, rows: 32)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        let overview = try tmux.waitFor("Namespaces (26)")
        #expect(overview.contains("misses/m") && overview.contains("ops/s") && overview.contains("evicted/m"))

        try tmux.type(":ns sets", enter: true)
        try tmux.waitFor("sets · ")
        try tmux.keys("t")
        // The counts arrive after the breadcrumb: read them once the hours are drawn.
        let timeline = try tmux.waitFor("Next 48 hours")
        let expected = try #require(count(ofRange: "1 h–1 day", in: timeline))
        #expect(expected > 0)
        try tmux.keys("j", "j", "j", "j", "Enter")
        try tmux.waitFor("(\(expected) matching)")
        try tmux.keys("Escape", "Escape")
        try tmux.waitFor("Next 48 hours")
        try tmux.keys("E")
        try tmux.waitFor("expires>=")

        try tmux.keys("F")
        try tmux.waitFor("order frozen (F)")
        try tmux.keys("3")
        let statistics = try tmux.waitFor("Last 5 min")
        #expect(statistics.contains("Hit rate · scale"))
        try tmux.keys("F")
        try tmux.waitFor("Order live again")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// Enter on a Stats bucket lists the entries written in it: the demo's writes fall in the
    /// newest 30-minute bucket of the 24 h window (or the one before, across a boundary).
    @Test func enterOnAStatsBucketListsTheEntriesWrittenInIt() throws {
        let path = try demoFolder.demo()
        defer { try? FileManager.default.removeItem(atPath: demoFolder.path) }
        let tmux = try Tmux(columns: 120, rows: 32)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.type(":ns sets", enter: true)
        try tmux.waitFor("sets · ")
        try tmux.keys("3", "W", "W")
        try tmux.waitFor("last 24 h")
        try tmux.keys("Enter")
        var line = try tmux.waitFor("Enter lists what was written then")
        if line.contains(" 0 sets · ") {
            try tmux.keys("Left")
            line = try tmux.waitFor("UTC: ")
        }
        let sets = try #require(line.firstMatch(of: /UTC: ([0-9,]+) sets/)?.1)
        #expect(sets != "0", "\(line)")
        try tmux.keys("Enter")
        try tmux.waitFor("counted \(sets) sets")
        // The exact count comes with the first page ("≥ 0 matching" until then).
        let entries = try tmux.waitUntil("the exact count") { $0.contains(/\([0-9,]+ matching\)/) }
        #expect(entries.contains("filter created>="), "\(entries)")
        let matching = try #require(entries.firstMatch(of: /\(([0-9,]+) matching\)/)?.1)
        #expect(matching != "0", "\(entries)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }
}
