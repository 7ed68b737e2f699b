import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// `cachedeck demo [PATH | redis://…] [--live | --console]`
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Build a realistic demo cache (about 100k entries); --live runs a simulated app on it, --console "
            + "also opens the console.",
        discussion: """
            The cache holds a LEGO catalog (colors never expire, themes 30 days, parts 7 days, sets 1 day), a \
            multi-tenant planner with dependency rules, map tiles (24 h) and mailboxes capped at the newest \
            1,000 messages per account. Without PATH it goes to the user cache folder as demo.sqlite. Given \
            redis://[user:password@]host:port/db instead, it builds the same demo in a RedisStore under the \
            prefix cachedeck: (refused when that prefix holds other namespaces, unless --rebuild, which clears \
            only the demo's namespaces); there mail expires 15 minutes after it arrives, as Redis refuses \
            per-namespace caps.
            """)

    @Argument(
        help: "Where to write the cache: a file (default: the user cache folder's demo.sqlite) or a redis:// URL.")
    var path: String?

    @Flag(help: "After building (or on an existing demo cache), run a simulated app until interrupted.")
    var live = false

    @Flag(help: "Run the simulated app in the background and open the console on the demo cache.")
    var console = false

    @Option(help: "Stop the live workload after this many seconds.") var duration: Double?

    @Option(help: "Live operations per second.") var rate = 2000

    @Option(help: "Size factor (1 = about 100k entries).") var scale = 1.0

    @Flag(help: "Rebuild even if the file (or Redis prefix) already holds a demo cache.") var rebuild = false

    func validate() throws {
        if scale <= 0 || scale > 20 { throw ValidationError("--scale must be between 0 and 20") }
        if rate < 1 { throw ValidationError("--rate must be at least 1") }
        if live && console { throw ValidationError("give --live or --console, not both") }
    }

    func run() async throws {
        let target = try open()
        let store = target.store
        if let note = target.policies.note { print("Note: \(note).") }
        if !target.isBuilt {
            var builder = DemoBuilder(store: store, scale: scale, policies: target.policies)
            let started = ContinuousClock.now
            let written = try builder.build { print("  \($0)") }
            print("Built \(written) entries in \(target.location) in \(Figures.span(ContinuousClock.now - started)).")
        } else {
            print("Using the demo cache in \(target.location) (--rebuild starts over).")
        }
        if console { return try await runConsole(on: target) }
        guard live else {
            try store.close()
            print("Open it with: cachedeck \(target.location)")
            return
        }
        print("Running a simulated app on \(target.location); press Ctrl-C to stop.")
        let deadline = duration.map { ContinuousClock.now + .seconds($0) }
        let interrupted = Interruption()
        var workload = DemoWorkload(store: store, rate: rate, policies: target.policies)
        try await workload.run(
            shouldStop: { interrupted.happened || deadline.map { ContinuousClock.now >= $0 } ?? false },
            report: { print("  \($0)") })
        try store.close()
        print("Stopped; the cache was flushed and closed.")
    }

    /// The file (PATH, or the user cache folder's demo.sqlite) or the RedisStore at a URL.
    private func open() throws -> DemoTarget {
        if let path, RedisKeyspace.isURL(path) {
            return try DemoTarget.redis(url: path, rebuild: rebuild) { print("  \($0)") }
        }
        return try DemoTarget.file(path: path ?? CacheStore.defaultPath(named: "demo"), rebuild: rebuild)
    }

    /// The simulated app in the background of this process, and the console in front of it.
    private func runConsole(on target: DemoTarget) async throws {
        let (theme, _) = try ConsoleLauncher.theme(named: "default")
        let (store, policies) = (target.store, target.policies)
        let stop = StopSignal()
        let workload = Task { [rate] in
            var workload = DemoWorkload(store: store, rate: rate, policies: policies)
            try await workload.run(shouldStop: { stop.isStopped }, report: { _ in })
        }
        var consoleError: (any Error)?
        do {
            try await ConsoleLauncher(theme: theme, refresh: .seconds(1))
                .runDetached(on: try target.openConsole())
        } catch {
            consoleError = error
        }
        stop.stop()
        let stopped = await workload.result
        try store.close()
        if let consoleError { throw consoleError }
        try stopped.get()
        print("Stopped the simulated app; the cache was flushed and closed.")
    }
}
