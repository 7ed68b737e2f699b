import Foundation
import Testing

@testable import CacheCore

/// Crashes and contention with real processes: `cachedeck-testhelper` as the app, the
/// `cachedeck` binary as the console. Counts are small by default; `CACHEDECK_FULL_COUNTS=1`
/// runs the full ones (100 kills, longer contention). Each test prints its figures.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ReliabilityTests {
    @Test func aWriterKilledAtRandomMomentsLeavesAValidFileWithEveryAcknowledgedSet() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let rounds = TestScale.count(ci: 12, full: 100)
        let pads = [16, 3000, 20_000]  // inline rows, near a page, overflow chains
        var acknowledged: [(prefix: String, count: Int, pad: Int)] = []
        var inFlightCommitted = 0
        for round in 0..<rounds {
            let prefix = "r\(round)"
            let pad = pads[round % pads.count]
            let killPoint = Int.random(in: 0...150)
            let delay = UInt32.random(in: 0..<4000)
            let context = "round \(round) (pad \(pad), kill after set \(killPoint) + \(delay) µs)"
            // Sets, expiring churn, sweeps and WAL checkpoints and truncations run at once.
            let helper = try HelperProcess(["write", path, "crash", prefix, "1000000", "--pad", "\(pad)", "--churn"])
            try helper.waitForLine("'ok \(killPoint)'") { line in
                line.hasPrefix("ok ") && (Int(line.dropFirst(3)) ?? 0) >= killPoint
            }
            usleep(delay)  // moves the kill to a random point of the write loop, not a sync
            helper.kill()
            let exit = try helper.waitForExit()
            #expect(exit.signalled && exit.status == SIGKILL, "\(context): helper was not killed: \(exit.stderr)")
            // Every line printed before death is a set that returned.
            let acked = helper.lines.filter { $0.hasPrefix("ok ") }.count
            acknowledged.append((prefix, acked, pad))

            try expectIntegrity(path)
            let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
            let cache = try store.cache("crash", key: String.self, value: String.self)
            let lost = try wrongEntries(cache, prefix: prefix, indices: 0..<acked, pad: pad)
            #expect(lost.isEmpty, "\(context): \(lost.count) of \(acked) acknowledged sets lost: \(lost.prefix(5))")
            // The set in flight at the kill either committed whole or not at all.
            let inFlight = try cache.get("\(prefix)-\(acked)")
            #expect(inFlight == nil || inFlight == helperValue(prefix: prefix, index: acked, pad: pad), "\(context)")
            if inFlight != nil { inFlightCommitted += 1 }
            try store.close()
        }
        // And nothing acknowledged in an earlier round went missing in a later one.
        let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
        let cache = try store.cache("crash", key: String.self, value: String.self)
        var total = 0
        for (prefix, count, pad) in acknowledged {
            total += count
            let lost = try wrongEntries(cache, prefix: prefix, indices: 0..<count, pad: pad)
            #expect(lost.isEmpty, "\(prefix): \(lost.count) acknowledged sets lost after later rounds")
        }
        try store.close()
        print(
            "crash: \(rounds) writers killed with SIGKILL, integrity_check ok \(rounds)/\(rounds), "
                + "\(total) acknowledged sets all present, \(inFlightCommitted) in-flight sets committed whole")
    }

    @Test func fourAppsAndAConsoleSweepingAndClearingLoseNothingAndConverge() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let rounds = TestScale.count(ci: 600, full: 5000)
        let apps = try (0..<4).map { try HelperProcess(["app", path, "\($0)", "\(rounds)"]) }
        // The console's actions run while any app is still working.
        let actions: [[String]] = [
            ["sweep", path, "--yes"], ["clear", path, "short", "--yes"], ["clear", path, "hot", "--yes"],
            ["invalidate", path, "hot", "--prefix", "h1", "--yes"], ["info", path, "--json"],
            ["ls", path, "ledger", "--limit", "5"],
        ]
        var consoleRuns = 0
        while apps.contains(where: { !$0.lines.contains("done \(rounds)") && !$0.hasExited }) {
            let arguments = actions[consoleRuns % actions.count]
            let exit = try runConsoleCommand(arguments)
            #expect(exit.succeeded && exit.stderr.isEmpty, "cachedeck \(arguments): \(exit.stderr)")
            consoleRuns += 1
        }
        for app in apps { try app.waitForLine("done \(rounds)") }
        // Every app now holds every hot key it could read in memory; the console clears them.
        let clear = try runConsoleCommand(["clear", path, "hot", "--yes"])
        #expect(clear.succeeded, "final clear: \(clear.stderr)")
        for app in apps { app.release() }
        var errors: [String] = []
        for (id, app) in apps.enumerated() {
            let exit = try app.waitForExit()
            #expect(exit.succeeded && exit.stderr.isEmpty, "app \(id): \(exit.stderr)")
            errors += app.lines.filter { $0.hasPrefix("error: ") }.map { "app \(id) \($0)" }
            #expect(app.lines.last == "converged", "app \(id)'s memory tier kept copies: \(app.lines.last ?? "")")
        }
        #expect(errors.isEmpty, "\(errors.count) calls failed, e.g. \(errors.prefix(3))")
        #expect(!errors.contains { $0.contains("locked") || $0.contains("busy") })

        let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
        let ledger = try store.cache("ledger", key: String.self, value: String.self)
        var lost: [String] = []
        for id in 0..<4 {
            for index in 0..<rounds where try ledger.get("a\(id)-\(index)") != "app \(id) wrote \(index)" {
                lost.append("a\(id)-\(index)")
            }
        }
        #expect(lost.isEmpty, "\(lost.count) returned writes lost, e.g. \(lost.prefix(5))")
        try store.close()
        try expectIntegrity(path)
        print(
            "contention: 4 apps × \(rounds) rounds (\(4 * rounds * 3) sets, \(4 * rounds * 2) reads) and "
                + "\(consoleRuns + 1) console commands: \(errors.count) errors, \(lost.count) lost writes, "
                + "4/4 memory tiers converged")
    }

    /// Runs `cachedeck ARGUMENTS` to the end, as an operator's shell would.
    private func runConsoleCommand(_ arguments: [String]) throws -> HelperProcess.Exit {
        let console = try HelperProcess(arguments, program: "cachedeck")
        console.release()
        return try console.waitForExit()
    }
}
