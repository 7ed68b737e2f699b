import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// Drives the console's controller over a real file the way the runtime does, without a
/// terminal: every frame is rendered and diffed against the one before (what the painter
/// sends to curses is the cells that differ). Reads run between keys, untimed, as the
/// runtime's background queue runs them; keypress-to-frame is the key's handling, the
/// render and the diff.
struct ConsoleBenchmark {
    let path: String

    /// docs/ARCHITECTURE.md's console budgets.
    static let firstFrameBudget = 150.0
    static let keypressBudget = 16.0
    static let memoryBudget = 64.0

    func run() throws -> String {
        let clock = ContinuousClock()
        let started = clock.now
        let source = try StoreDataSource.open(path: path, readOnly: true)
        var console = SteppedConsole(source: source, size: Size(columns: 120, rows: 40))
        console.perform(console.controller.start())
        let firstFrame = console.frame()
        let firstFrameTime = (clock.now - started).fractionalMilliseconds
        guard firstFrame.textSnapshot().contains("bench") else { throw BenchError("the first frame shows no data") }

        let openNamespace = clock.now
        console.type(":ns bench")
        console.press(.enter)
        let entriesTime = (clock.now - openNamespace).fractionalMilliseconds
        guard console.frame().textSnapshot().contains("row 1 of ") else {
            throw BenchError("the entries of 'bench' did not show")
        }

        var keys: [Key] = Array(repeating: .character("j"), count: 500)
        keys += Array(repeating: .pageDown, count: 300) + Array(repeating: .pageUp, count: 100)
        keys += [.character("G")] + Array(repeating: .character("k"), count: 100) + [.character("g")]
        keys += [.character("s")] + Array(repeating: .character("j"), count: 50) + [.character("S"), .character("s")]
        keys += [.character("/")] + "hits=0".map { Key.character($0) } + [.enter]
        keys += Array(repeating: .character("j"), count: 50) + [.character(" "), .character(" "), .character("*")]
        keys += [.enter, .character("x"), .character("x"), .escape, .escape, .escape]
        keys += [.character("2"), .character("3"), .character("W"), .tab, .character("j"), .character("4")]
        keys += [.character("?"), .pageDown, .escape, .character("1"), .tab, .tab]
        keys += Array(repeating: .character("j"), count: 20) + [.character("p"), .character("p")]
        var latencies = LatencySample()
        for key in keys { latencies.add(console.timedPress(key)) }

        console.type(":ns bench")
        console.press(.enter)
        for _ in 0..<2000 { console.press(.pageDown) }
        let scrolled = console.frame().textSnapshot().split(separator: "\n").dropFirst(2).first.map(String.init) ?? ""
        let memory = Self.memory()

        let p99 = latencies.percentile(0.99) / 1e6
        let rows: [(String, String, String, Bool)] = [
            (
                "first frame (open, overview, render, diff)", String(format: "%.1f ms", firstFrameTime),
                "≤ \(Int(Self.firstFrameBudget)) ms", firstFrameTime <= Self.firstFrameBudget
            ),
            (
                "keypress to frame, p99 of \(latencies.count)", String(format: "%.2f ms", p99),
                "≤ \(Int(Self.keypressBudget)) ms", p99 <= Self.keypressBudget
            ),
            (
                "resident memory after 2,000 pages down", String(format: "%.1f MB", memory.resident),
                "≤ \(Int(Self.memoryBudget)) MB", memory.resident <= Self.memoryBudget
            ),
        ]
        var lines = ["", "console on \(path) (120×40):"]
        for row in rows {
            lines.append(
                "  \(row.0.padding(toLength: 44, withPad: " ", startingAt: 0)) \(row.1.padding(toLength: 10, withPad: " ", startingAt: 0)) "
                    + "\(row.2.padding(toLength: 9, withPad: " ", startingAt: 0)) \(row.3 ? "PASS" : "FAIL")")
        }
        lines.append(
            "  • keypress to frame: median \(String(format: "%.3f", latencies.percentile(0.5) / 1e6)) ms, "
                + "max \(String(format: "%.2f", latencies.maximum / 1e6)) ms (handling, render and diff; reads run apart)"
        )
        lines.append(
            "  • first page of 'bench' after `:ns bench`: \(String(format: "%.1f", entriesTime)) ms "
                + "(query, render, diff)")
        lines.append(
            "  • reads between keys: \(console.reads) in \(String(format: "%.0f", console.readMilliseconds)) ms; "
                + "peak resident \(String(format: "%.1f", memory.peak)) MB")
        lines.append("  • after scrolling: \(scrolled.trimmingCharacters(in: .whitespaces))")
        return lines.joined(separator: "\n")
    }

    /// VmRSS and VmHWM from /proc/self/status, in MB.
    static func memory() -> (resident: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func value(_ name: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
        }
        return (value("VmRSS"), value("VmHWM"))
    }
}
