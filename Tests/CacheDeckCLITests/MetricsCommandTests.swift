import CacheCore
import Foundation
import Testing

/// Scrapes a `cachedeck metrics` server with plain HTTP over a socket.
enum Scrape {
    /// A plain HTTP/1.1 request to 127.0.0.1:`port`; the status line and the body.
    static func get(_ path: String, port: Int, method: String = "GET") throws -> (status: String, body: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CLIFailure("no socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw CLIFailure("cannot connect to port \(port)") }
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            answer += chunk[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw CLIFailure("no HTTP answer: \(text)") }
        let status = text[..<split.lowerBound].components(separatedBy: "\r\n")[0]
        return (status, String(text[split.upperBound...]))
    }

    /// The samples of an exposition: `name{labels}` → value.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// A JSON number as a `Double`.
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// The port a `cachedeck metrics` run says it listens on, once it does.
    static func port(of server: CLIProcess) throws -> Int {
        try server.waitForOutput("the address") { $0.contains("/metrics (Ctrl-C stops)") }
        let first = server.stdoutSoFar.split(separator: "\n").first ?? ""
        guard let port = Int(first.split(separator: ":").last?.split(separator: "/").first ?? "") else {
            throw CLIFailure("no port in '\(first)'")
        }
        return port
    }
}

/// `cachedeck metrics`: scraped over real HTTP, and compared with `stats --json` and
/// `namespaces --json` on the same file.
@Suite struct MetricsCommandTests {
    @Test func aScrapeServesWhatStatsAndNamespacesSayAndSIGTERMStopsIt() throws {
        let fixture = try CLIFixture()
        let server = try fixture.start("metrics", fixture.path, "--listen", "127.0.0.1:0")
        let port = try Scrape.port(of: server)
        #expect(server.stdoutSoFar.hasPrefix("Serving metrics on http://127.0.0.1:\(port)/metrics (Ctrl-C stops)\n"))

        let scrape = try Scrape.get("/metrics", port: port)
        #expect(scrape.status == "HTTP/1.1 200 OK")
        let metrics = Scrape.samples(scrape.body)
        #expect(scrape.body.contains("# TYPE cachedeck_hits_total counter"))
        #expect(scrape.body.contains("# TYPE cachedeck_hit_ratio gauge"))

        let namespaces = try #require(try fixture.run("namespaces", fixture.path, "--json").json() as? [[String: Any]])
        #expect(namespaces.count == 3)
        for namespace in namespaces {
            let name = try #require(namespace["name"] as? String)
            let labels = "{namespace=\"\(name)\"}"
            #expect(metrics["cachedeck_entries\(labels)"] == Scrape.number(namespace["entryCount"]))
            #expect(metrics["cachedeck_expired_entries\(labels)"] == Scrape.number(namespace["expiredEntryCount"]))
            #expect(metrics["cachedeck_bytes\(labels)"] == Scrape.number(namespace["bytes"]))
            let stats = try fixture.run("stats", fixture.path, name, "--json").object()
            let windows = try #require(stats["windows"] as? [[String: Any]])
            let minute = try #require(windows.first { $0["name"] as? String == "1m" }?["activity"] as? [String: Any])
            let windowed = "{namespace=\"\(name)\",window=\"1m\"}"
            #expect(metrics["cachedeck_hit_ratio\(windowed)"] == Scrape.number(minute["hitRate"]), "\(name) hit ratio")
            #expect(metrics["cachedeck_hits\(windowed)"] == nil, "a count over a window is a counter now, not a gauge")
        }
        #expect(metrics["cachedeck_hit_ratio{namespace=\"colors\",window=\"1m\"}"] == 0.9)
        #expect(
            metrics["cachedeck_hit_ratio{namespace=\"tiles\",window=\"1m\"}"] == nil, "no reads: no made-up ratio")
        #expect(metrics["cachedeck_processes"] == 1 && metrics["cachedeck_live_processes"] == 0)

        #expect(try Scrape.get("/other", port: port).status == "HTTP/1.1 404 Not Found")
        #expect(try Scrape.get("/metrics", port: port, method: "POST").status == "HTTP/1.1 405 Method Not Allowed")
        let head = try Scrape.get("/metrics", port: port, method: "HEAD")
        #expect(head.status == "HTTP/1.1 200 OK" && head.body.isEmpty)

        server.signal(SIGTERM)
        let result = try server.wait()
        #expect(result.status == 0 && result.stdout.hasSuffix("Stopped.\n") && result.stderr.isEmpty)
    }

    /// The counters, scraped twice around more work: they never go down, they grow by exactly
    /// what the app did, and they equal the store's own totals from the hour they start.
    @Test func countersAreCumulativeAndEqualTheStoresTotals() throws {
        let fixture = try CLIFixture()
        let server = try fixture.start("metrics", fixture.path, "--listen", "127.0.0.1:0")
        let port = try Scrape.port(of: server)
        let names = [
            "requests", "hits", "misses", "stale_hits", "sets", "removes", "evictions", "expirations", "invalidations",
            "load_failures",
        ]
        func counters() throws -> [String: Double] {
            Scrape.samples(try Scrape.get("/metrics", port: port).body).filter { $0.key.contains("_total{") }
        }
        let first = try counters()
        let start = try #require(Scrape.samples(try Scrape.get("/metrics", port: port).body)["cachedeck_counters_start_seconds"])

        let store = try CacheStore(path: fixture.path, options: StoreOptions())
        let colors = try store.cache("colors", key: Int.self, value: String.self)
        for _ in 0..<5 { _ = try colors.get(2) }
        _ = try colors.get(404)
        try colors.set("cyan", for: 4)
        try colors.remove(1)
        try store.flushTelemetry()
        let second = try counters()
        let inspector = store.inspector

        #expect(Set(first.keys) == Set(second.keys) && first.count == 3 * names.count)
        for (sample, value) in first { #expect(try #require(second[sample]) >= value, "\(sample) went down") }
        let colorsLabel = "{namespace=\"colors\"}"
        for (name, grew) in [("requests", 6), ("hits", 5), ("misses", 1), ("sets", 1), ("removes", 1), ("evictions", 0)] {
            let key = "cachedeck_\(name)_total\(colorsLabel)"
            #expect(second[key].map { $0 - (first[key] ?? -1) } == Double(grew), "\(name)")
        }
        for namespace in ["colors", "tiles", "sessions"] {
            let totals = try inspector.activity(namespace: namespace, from: Int64(start * 1000), until: .max)
            let label = "{namespace=\"\(namespace)\"}"
            for (name, value) in [
                ("requests", totals.requests), ("hits", totals.hits), ("misses", totals.misses), ("sets", totals.sets),
                ("removes", totals.removes), ("load_failures", totals.loadFailures),
            ] {
                #expect(second["cachedeck_\(name)_total\(label)"] == Double(value), "\(namespace) \(name)")
            }
        }
        try store.close()
        server.signal(SIGTERM)
        #expect(try server.wait().status == 0)
    }

    @Test func badListenAddressesAndForeignFilesGetOneLine() throws {
        let fixture = try CLIFixture()
        let word = try fixture.run("metrics", fixture.path, "--listen", "9464")
        #expect(word.status == 1 && word.errorLines == ["cachedeck: --listen takes HOST:PORT (127.0.0.1:9464), not '9464'"])
        let host = try fixture.run("metrics", fixture.path, "--listen", "example.org:80")
        #expect(host.errorLines == ["cachedeck: --listen needs an IPv4 address or localhost, not 'example.org'"])
        let missing = try fixture.run("metrics", fixture.folder.file("missing.sqlite"), "--listen", "127.0.0.1:0")
        #expect(missing.status == 1 && missing.errorLines.count == 1)
    }
}
