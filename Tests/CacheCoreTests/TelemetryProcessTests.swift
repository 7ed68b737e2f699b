import Foundation
import Testing

@testable import CacheCore

/// Telemetry and heartbeats written by another process (the `cachedeck-testhelper`), read
/// the way a console would: through a read-only store on the same file.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TelemetryProcessTests {
    @Test func anotherProcessesCountersAndHeartbeatAreVisibleWhileItRuns() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try CacheStore(path: path).close()
        let helper = try HelperProcess(["telemetry", path, "parts", "25", "--hold"])
        try helper.waitForLine("flushed") { $0.hasPrefix("flushed ") }
        let flushed = try #require(helper.lines.first { $0.hasPrefix("flushed ") })
        let clientID = try #require(Int64(flushed.dropFirst("flushed ".count)))
        try helper.waitForLine("ready")

        let console = try CacheStore(path: path, options: .inspection())
        let live = try #require(try console.clients().first { $0.id == clientID })
        #expect(live.isLive)
        #expect(live.program == HelperBinary.name)
        #expect(live.host == ProcessIdentity.hostName)
        #expect(live.pid != getpid())
        let telemetry = try console.telemetry(since: .distantPast)
        let expected = CacheStatistics(diskHits: 25, misses: 25, sets: 25)
        #expect(telemetry.namespaces["parts"]?.reduce(.zero) { $0 + $1.statistics } == expected)
        #expect(telemetry.processes[clientID]?.reduce(.zero) { $0 + $1.statistics } == expected)

        helper.release()
        let exit = try helper.waitForExit()
        #expect(exit.succeeded, "helper failed: \(exit.stderr)")
        #expect(helper.lines.last == "closed")
        let stopped = try #require(try console.clients().first { $0.id == clientID })
        #expect(!stopped.isLive && stopped.stoppedAt != nil)
        #expect(try console.telemetry(since: .distantPast).total == expected, "closing added nothing new")
    }

    @Test func aKilledProcessStopsLookingLive() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let helper = try HelperProcess(["telemetry", path, "parts", "3", "--hold"])
        try helper.waitForLine("ready")
        helper.kill()
        _ = try helper.waitForExit()

        let console = try CacheStore(path: path, options: .inspection())
        let clients = try console.clients()
        #expect(clients.count == 1)
        #expect(clients.first?.stoppedAt == nil, "it never closed")
        #expect(clients.first?.isLive == false, "its pid is gone")
    }
}
