import CacheCore

@testable import CacheConsole
import TerminalUI

/// Walks the console over every screen of a ``HostileStore`` at one terminal size, the way
/// an operator would — Overview (both panels, every order), each namespace's entries (every
/// order, hostile filters typed, marks), entry details as JSON and hex, confirmations that
/// quote hostile keys and names, actions and undo (so the audit log and the status line hold
/// hostile text), timeline, statistics, audit log, help, the command line with completion —
/// and a long paste — and checks every frame it renders with ``FrameCheck`` and
/// ``TableCheck``. On some screens it resizes the terminal through ``sweepSizes`` (down to
/// sizes too small for the console) and back.
struct HostileTour {
    var harness: ConsoleHarness<StoreDataSource>
    var text: HostileText
    let hostile: HostileStore
    /// The tour's terminal size (resize sweeps come back to it).
    let size: Size
    /// Every frame is rendered and checked with each of these.
    let glyphSets: [GlyphSet]
    /// Names the seed and size in every problem.
    let context: String
    /// What the tour did last.
    private(set) var step = "the first frame"
    /// Frames rendered and checked.
    private(set) var frames = 0
    /// The first problems found (at most ``maximumProblems``).
    private(set) var problems: [String] = []
    /// What the checked frames showed (see ``coverage(of:)``), so a test can tell that the
    /// tour reached every screen.
    private(set) var seen: Set<String> = []

    static let maximumProblems = 10

    init(store: HostileStore, seed: UInt64, size: Size, glyphSets: [GlyphSet]) throws {
        hostile = store
        self.size = size
        self.glyphSets = glyphSets
        text = HostileText(seed: seed &* 31 &+ UInt64(size.columns * 1000 + size.rows))
        context = "seed \(seed) at \(size.columns)×\(size.rows)"
        harness = ConsoleHarness(columns: size.columns, rows: size.rows, source: try store.dataSource())
        check()
    }

    /// The whole walk.
    mutating func run() {
        overview()
        for index in hostile.namespaces.indices { entries(namespace: index) }
        auxiliaryViews()
        commandLine()
    }

    // MARK: Screens

    private mutating func overview() {
        resizeSweep(as: "resizing the Overview")
        press(.tab, .tab, as: "Tab between the Overview's panels")
        for _ in NamespaceColumn.allCases { press(.character("s"), as: "s on the Overview") }
        press(.character("S"), as: "S on the Overview")
        press(.character("j"), .character("j"), .character("j"), .character("g"), as: "moving on the Overview")
    }

    private mutating func open(namespace index: Int) {
        press(.character("1"), .character("g"), as: "back to the Overview")
        for _ in 0..<index { press(.character("j"), as: "selecting namespace \(index)") }
        press(.enter, as: "opening namespace \(index)")
    }

    private mutating func entries(namespace index: Int) {
        open(namespace: index)
        for _ in 0..<6 { press(.character("s"), as: "s on the entries of namespace \(index)") }
        press(.character("S"), as: "S on the entries")
        press(.character("G"), .character("k"), .pageUp, .character("g"), as: "moving through the entries")
        if index == 0 { resizeSweep(as: "resizing the entries") }
        press(.character("s"), .character("S"), as: "sorting by size, largest first")
        detail(as: "the largest entry", resizing: index == 0)
        press(.character("j"), as: "the next row")
        detail(as: "the second largest entry")
        press(
            .character("S"), .character("s"), .character("s"), .character("s"), .character("s"), .character("s"),
            as: "sorting by key again")

        press(.character("/"), as: "opening the filter")
        type(text.string(maximumPieces: 4), as: "typing a hostile filter")
        press(.enter, as: "applying the hostile filter")
        if harness.model.overlay != nil { press(.escape, as: "closing the refused filter") }
        press(.character("/"), .control("u"), as: "clearing the filter field")
        type(fragmentFilter(namespace: index), as: "typing a filter matching a hostile key")
        press(.enter, as: "applying a filter matching a hostile key")
        if harness.model.overlay != nil { press(.escape, as: "closing the refused filter") }
        press(.character("j"), .enter, as: "opening a matching entry")
        press(.escape, as: "back from a matching entry")
        press(.character("*"), .character("d"), as: "invalidating everything the filter matches")
        press(.character("n"), as: "cancelling")
        press(.character("/"), .control("u"), .enter, as: "removing the filter")

        press(.character("j"), .character("d"), as: "invalidating one hostile key")
        press(.character("y"), as: "confirming the invalidation")
        wait(as: "a live refresh after the invalidation")
        press(.character("u"), as: "undoing the invalidation")
        press(.character(" "), .character(" "), .character("V"), as: "marking rows")
        press(.character("d"), .escape, as: "cancelling the marked invalidation")
        press(.escape, as: "clearing the marks")
        press(.character("D"), as: "clearing the hostile namespace")
        type(text.string(maximumPieces: 2), as: "typing a hostile answer")
        press(.escape, as: "cancelling the clear")
        press(.character("t"), as: "the namespace's timeline")
        press(.escape, as: "back from the timeline")
    }

    /// Opens the selected entry, shows it as text and hex dump, scrolls both, goes back.
    private mutating func detail(as what: String, resizing: Bool = false) {
        press(.enter, as: "opening \(what)")
        if resizing { resizeSweep(as: "resizing \(what)") }
        press(.pageDown, .pageDown, .character("G"), as: "scrolling \(what)")
        press(.character("x"), as: "\(what) as a hex dump")
        press(.pageDown, .character("G"), as: "scrolling the hex dump of \(what)")
        press(.character("x"), .character("g"), as: "\(what) as text again")
        press(.escape, as: "back from \(what)")
    }

    private mutating func auxiliaryViews() {
        press(.character("2"), as: "the store's timeline")
        press(.character("3"), as: "statistics")
        for _ in 0...hostile.namespaces.count { press(.character("j"), as: "statistics of the next namespace") }
        press(.character("W"), .character("W"), .tab, as: "the statistics window and panels")
        press(.character("4"), as: "the audit log")
        resizeSweep(as: "resizing the audit log")
        for _ in 0..<4 { wait(as: "live refreshes of the audit log") }
        press(.character("G"), .character("g"), .character("j"), as: "moving in the audit log")
        press(.character("?"), .pageDown, as: "the help")
        press(.character("1"), as: "back to the Overview")
    }

    private mutating func commandLine() {
        press(.character(":"), as: "opening the command line")
        paste(text.huge(bytes: 3_000), as: "pasting 3 KB into the command line")
        press(.escape, as: "closing the command line")
        press(.character(":"), as: "opening the command line")
        type("ns ", as: "typing a command")
        press(.tab, as: "completing namespace names")
        press(.escape, as: "closing the command line")
        press(.character(":"), as: "opening the command line")
        type(text.string(maximumPieces: 4), as: "typing a hostile command")
        press(.enter, as: "running a hostile command")
        press(.character(":"), as: "opening the command line")
        type("ns " + text.string(maximumPieces: 2), as: "typing a hostile namespace")
        press(.enter, as: "opening a hostile namespace that does not exist")
        open(namespace: 0)
        press(.character(":"), as: "opening the command line")
        type("invalidate prefix=" + prefix(of: hostile.keys[hostile.namespaces[0]]?.first ?? ""), as: "typing a prefix")
        press(.enter, as: "invalidating a hostile prefix")
        press(.character("y"), as: "confirming the prefix invalidation")
        press(.character(":"), as: "opening the command line")
        type("invalidate tag=" + prefix(of: hostile.tags[0]), as: "typing a tag")
        press(.enter, as: "invalidating a hostile tag")
        press(.character("y"), as: "confirming the tag invalidation")
        press(.character("4"), as: "the audit log with hostile targets")
        press(.character("j"), .character("u"), as: "undoing from the audit log")
        press(.character("y"), .character("g"), as: "confirming the undo")
    }

    // MARK: Input

    /// A filter that matches a key of namespace `index`: a quoted piece of it.
    private mutating func fragmentFilter(namespace index: Int) -> String {
        let keys = hostile.keys[hostile.namespaces[index]] ?? []
        guard let key = keys.isEmpty ? nil : text.random.pick(keys) else { return "x" }
        let characters = Array(key.prefix(40))
        let start = Int.random(in: 0..<max(1, characters.count), using: &text.random)
        let piece = String(characters.dropFirst(start).prefix(Int.random(in: 1...6, using: &text.random)))
        return "\"" + piece.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    /// The start of `text` up to its first space (commands split at spaces), at most 12
    /// characters, never empty.
    private func prefix(of text: String) -> String {
        let word = String(text.prefix { $0 != " " }.prefix(12))
        return word.isEmpty ? "x" : word
    }

    /// Sizes a resize sweep goes through: narrow, wide, the smallest laid out, too small,
    /// and a single cell.
    static let sweepSizes = [
        Size(columns: 60, rows: 16), Size(columns: 200, rows: 50), Size(columns: 59, rows: 40),
        Size(columns: 40, rows: 12), Size(columns: 1, rows: 1),
    ]

    /// Resizes through ``sweepSizes`` and back, checking each frame.
    mutating func resizeSweep(as what: String) {
        step = what
        for next in Self.sweepSizes + [size] {
            harness.resize(columns: next.columns, rows: next.rows)
            check()
        }
    }

    /// Lets 1.5 s pass (a tick, so a live refresh, and status messages age), then checks.
    mutating func wait(as what: String) {
        step = what
        harness.wait(1_500)
        check()
    }

    /// Types `pasted` without checking each key (a paste arrives at once), then checks.
    mutating func paste(_ pasted: String, as what: String) {
        step = what
        for scalar in pasted.unicodeScalars { harness.press(.character(Character(scalar))) }
        check()
    }

    /// Presses each key, checking the frame after each.
    mutating func press(_ keys: Key..., as what: String) {
        step = what
        for key in keys {
            harness.press(key)
            check()
        }
    }

    /// Types `typed` scalar by scalar, as a terminal delivers it (a pasted emoji sequence
    /// arrives as several keys), checking the frame after each.
    mutating func type(_ typed: String, as what: String) {
        step = what + " " + FrameCheck.quote(typed)
        for scalar in typed.unicodeScalars {
            harness.press(.character(Character(scalar)))
            check()
        }
    }

    /// Renders and checks the frame with each of ``glyphSets``.
    mutating func check() {
        for glyphs in glyphSets {
            let buffer = harness.controller.render(options: RenderOptions(glyphs: glyphs))
            frames += 1
            seen.formUnion(coverage(of: buffer))
            var found = FrameCheck.problems(in: buffer, glyphs: glyphs)
            for table in TableCheck.tables(in: harness.controller) {
                found += table.problems(in: buffer, glyphs: glyphs)
            }
            for problem in found where problems.count < Self.maximumProblems {
                problems.append("\(context), \(glyphs) glyphs, after \(step): \(problem)")
            }
        }
    }

    /// Everything a tour is expected to reach.
    static let screens: Set<String> = [
        "overview", "overview processes", "entries", "detail", "detail hex dump", "timeline", "statistics", "audit",
        "help", "filter", "command", "completions", "confirm", "message", "error", "too small", "escapes",
    ]

    /// What `buffer` (the current frame) shows, in the words of ``screens``.
    private func coverage(of buffer: ScreenBuffer) -> Set<String> {
        let model = harness.model
        guard ConsoleLayout.fits(harness.controller.size) else { return ["too small"] }
        var shown: Set<String> = []
        switch model.current.view {
        case let view as OverviewView: shown.insert(view.pane == .processes ? "overview processes" : "overview")
        case is EntriesView: shown.insert("entries")
        case let view as DetailView:
            shown.insert(view.snapshot?.value.isHexDump == true ? "detail hex dump" : "detail")
        case is TimelineView: shown.insert("timeline")
        case is StatisticsView: shown.insert("statistics")
        case is AuditView: shown.insert("audit")
        case is HelpView: shown.insert("help")
        default: shown.insert(String(describing: Swift.type(of: model.current.view)))
        }
        switch model.overlay {
        case .filter: shown.insert("filter")
        case .command(_, let completions): shown.insert(completions.isEmpty ? "command" : "completions")
        case .confirm: shown.insert("confirm")
        case nil: break
        }
        if let status = model.status { shown.insert(status.isError ? "error" : "message") }
        if !seen.contains("escapes") && buffer.textSnapshot().contains("\\u{") { shown.insert("escapes") }
        return shown
    }
}
