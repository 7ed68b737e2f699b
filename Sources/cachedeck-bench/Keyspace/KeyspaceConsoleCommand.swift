import ArgumentParser
import CacheConsole
import CacheCoreRedis
import Foundation
import TerminalUI

/// `cachedeck-bench keyspace-console`: the console on a Redis keyspace in a process of its own
/// (spawned by `keyspace`, which watches the server meanwhile), driven the way the runtime
/// drives it: started, then a tick every 50 ms, each frame rendered, until the scan ends.
/// Prints what it measured as one JSON line.
struct KeyspaceConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyspace-console", abstract: "The console's side of `keyspace` (internal).",
        shouldDisplay: false)

    @Option var url: String

    /// What the worker measured.
    struct Figures: Codable {
        /// From the start until a frame showed the keyspace's prefixes.
        var firstScreenMilliseconds: Double
        /// Whether that frame marked its counts as lower bounds (`≥`).
        var firstScreenMarked: Bool
        /// The scan's run, start to complete.
        var scanSeconds: Double
        /// Keys the finished scan counted under the top level.
        var keysFound: Int
        /// Peak and final resident memory (VmHWM, VmRSS).
        var peakMegabytes: Double
        var residentMegabytes: Double
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let source = try KeyspaceDataSource(url: url)
        var console = SteppedConsole(source: source, size: Size(columns: 120, rows: 40))
        console.perform(console.controller.start())
        var firstScreen: (Duration, Bool)?
        var level = try source.keyspace(KeyspaceRequest(prefix: Data())).level
        let deadline = started + .seconds(3600)
        while !level.scan.isComplete {
            guard clock.now < deadline else { throw BenchError("the scan did not end in an hour") }
            let text = console.frame().textSnapshot()
            if firstScreen == nil, text.contains("user:") { firstScreen = (clock.now - started, text.contains("≥")) }
            usleep(50_000)  // the runtime's tick
            console.tick(now: Int64(Date().timeIntervalSince1970 * 1000))
            level = try source.keyspace(KeyspaceRequest(prefix: Data())).level
        }
        let scanTime = clock.now - started
        guard let firstScreen else { throw BenchError("no frame showed the keyspace before the scan ended") }
        let memory = ConsoleBenchmark.memory()
        let figures = Figures(
            firstScreenMilliseconds: firstScreen.0.fractionalMilliseconds, firstScreenMarked: firstScreen.1,
            scanSeconds: scanTime.fractionalMilliseconds / 1000, keysFound: level.keys.value,
            peakMegabytes: memory.peak, residentMegabytes: memory.resident)
        print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    }
}
