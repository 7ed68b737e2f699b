import Foundation
import Testing

@testable import CacheCore

/// The read commands on a small file: their tables, and the documented JSON shapes
/// (docs/cli-json.md) — every key, so a change to a shape fails here first.
@Suite struct ReadCommandTests {
    static let activityKeys: Set<String> = [
        "start", "durationMilliseconds", "hits", "misses", "staleHits", "requests", "sets", "removes", "evictions",
        "expirations", "invalidations", "loadSuccesses", "loadFailures", "health", "operationsPerSecond",
        "evictionsPerSecond",
    ]
    static let rowKeys: Set<String> = [
        "id", "namespace", "key", "size", "valueBytes", "createdAt", "lastAccessAt", "hits", "version", "tags",
        "preview",
    ]

    @Test func infoShowsTheFileAndItsProcesses() throws {
        let fixture = try CLIFixture()
        let table = try fixture.run("info", fixture.path)
        #expect(table.status == 0 && table.stderr.isEmpty)
        #expect(table.stdout.contains("Format       CacheDeck cache, format \(Schema.currentVersion)"))
        #expect(table.stdout.contains("Contents     19 entries"))
        #expect(table.stdout.contains("in 3 namespaces"))
        #expect(table.stdout.contains("Processes    0 live of 1 attached"))
        let process = try #require(table.stdout.split(separator: "\n").last)
        #expect(process.contains("fixture") && process.hasSuffix("stopped"))

        let json = try fixture.run("info", fixture.path, "--json").object()
        #expect(
            Set(json.keys) == [
                "path", "now", "formatVersion", "isReadOnly", "fileBytes", "walBytes", "pageSize", "pageCount",
                "freelistCount", "namespaceCount", "entryCount", "payloadBytes", "processes", "lastMinute",
            ])
        #expect(json["path"] as? String == fixture.path && json["formatVersion"] as? Int == Schema.currentVersion)
        #expect(json["entryCount"] as? Int == 19 && json["isReadOnly"] as? Bool == true)
        let processes = try #require(json["processes"] as? [[String: Any]])
        #expect(
            processes.map { Set($0.keys) } == [
                [
                    "id", "pid", "host", "program", "startedAt", "lastHeartbeatAt", "heartbeatIntervalMilliseconds",
                    "stoppedAt", "isLive",
                ]
            ])
        #expect(processes.first?["program"] as? String == "fixture" && processes.first?["isLive"] as? Bool == false)
        let minute = try #require(json["lastMinute"] as? [String: Any])
        #expect(Set(minute.keys) == Self.activityKeys.union(["hitRate"]))
        #expect(minute["requests"] as? Int == 10 && minute["hitRate"] as? Double == 0.9)
    }

    @Test func namespacesShowCountsRatesAndPolicies() throws {
        let fixture = try CLIFixture()
        let table = try fixture.run("namespaces", fixture.path)
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("namespace  entries  expired") && lines[0].hasSuffix("version  policy"))
        let colors = lines[1].split(separator: " ", omittingEmptySubsequences: true)
        #expect(colors.prefix(3) == ["colors", "3", "0"] && colors.contains("90.0%") && colors.contains("excellent"))
        #expect(lines[1].hasSuffix("never, stale 1h"), "the default stale window is shown")
        #expect(
            lines[2].split(separator: " ").prefix(3) == ["sessions", "5", "3"] && lines[2].hasSuffix("1d, stale 1h"))

        let json = try #require(try fixture.run("namespaces", fixture.path, "--json").json() as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["colors", "sessions", "tiles"])
        #expect(
            Set(json[0].keys) == [
                "name", "entryCount", "expiredEntryCount", "liveEntryCount", "bytes", "version", "generation", "policy",
                "policyJSON", "createdAt", "updatedAt", "lastMinute",
            ])
        #expect(json[1]["expiredEntryCount"] as? Int == 3 && json[1]["liveEntryCount"] as? Int == 2)
        let policy = try #require(json[0]["policy"] as? [String: Any])
        #expect(
            Set(policy.keys) == [
                "tiers", "expiration", "version", "eviction", "staleWindowMilliseconds", "isEnabled",
                "memoryMaxEntries",
            ])
        let minute = try #require(json[0]["lastMinute"] as? [String: Any])
        #expect(minute["hitRate"] as? Double == 0.9 && minute["health"] as? String == "excellent")
        #expect((json[2]["lastMinute"] as? [String: Any])?["hitRate"] == nil, "no reads: no hit rate")
    }

    @Test func lsPagesWithACursorAndEscapesKeys() throws {
        let fixture = try CLIFixture()
        let first = try fixture.run("ls", fixture.path, "tiles", "--limit", "4")
        #expect(first.status == 0)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].split(separator: " ").prefix(3) == ["key", "size", "age"], "\(lines[0])")
        #expect(lines[1].hasPrefix("evil\\e[31mred "), "the escape sequence is shown, not sent")
        #expect(lines[2].hasPrefix("z1/0 ") && lines[2].contains("104 B") && lines[2].hasSuffix("zoom:1"))
        let hint = try #require(lines.last)
        #expect(hint.hasPrefix("Next page: cachedeck ls \(fixture.path) tiles --sort key --limit 4 --after "))
        let words = hint.split(separator: " ").map(String.init).dropFirst(3)
        let second = try fixture.run(Array(words))
        #expect(second.status == 0)
        #expect(second.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("z1/3 ") == true)

        let bySize = try fixture.run("ls", fixture.path, "tiles", "--sort", "size", "--filter", "size>600B", "--json")
        let page = try bySize.object()
        #expect(
            Set(page.keys) == [
                "namespace", "sort", "filter", "now", "rows", "examinedRows", "reachedScanLimit",
            ])
        #expect(page["filter"] as? String == "size>600B")
        let sort = try #require(page["sort"] as? [String: Any])
        #expect(sort["field"] as? String == "size" && sort["descending"] as? Bool == true)
        let rows = try #require(page["rows"] as? [[String: Any]])
        #expect(rows.map { $0["key"] as? String } == ["z1/9", "z1/8", "z1/7", "z1/6", "z1/5"])
        #expect(
            rows.allSatisfy {
                Self.rowKeys.isSubset(of: $0.keys)
                    && Set($0.keys).subtracting(Self.rowKeys) == ["expiresAt", "staleUntil"]
            })
        let reversed = try fixture.run(
            "ls", fixture.path, "tiles", "--sort", "size", "--reverse", "--filter", "prefix:z1/", "--limit", "1",
            "--json")
        #expect((try reversed.object()["rows"] as? [[String: Any]])?.first?["key"] as? String == "z1/0")

        let last = try fixture.run("ls", fixture.path, "sessions", "--filter", "expired", "--json").object()
        #expect((last["rows"] as? [Any])?.count == 3 && last["next"] == nil)
        let expired = try fixture.run("ls", fixture.path, "sessions", "--sort", "expires")
        #expect(expired.stdout.split(separator: "\n")[1].contains("expired 1h ago"))
    }

    @Test func lsSaysAnEntryThatWasNeverReadWasAccessedNever() throws {
        let fixture = try CLIFixture()
        let lines = try fixture.run("ls", fixture.path, "colors").stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        let start = try #require(header.range(of: "accessed")).lowerBound.utf16Offset(in: header)
        let lastAccess = lines.dropFirst().map { line in
            String(line.dropFirst(start).prefix("accessed".count)).trimmingCharacters(in: .whitespaces)
        }
        #expect(lines.dropFirst().map { $0.prefix(1) } == ["1", "2", "3"])
        #expect(lastAccess[0] == "now" || lastAccess[0].hasSuffix(" ago"), "read 9 times")
        #expect(lastAccess.dropFirst().allSatisfy { $0 == "never" }, "written, never read")
    }

    @Test func showSaysNeverForAnEntryNeverReadAndJSONSaysNull() throws {
        let fixture = try CLIFixture()
        let text = try fixture.run("show", fixture.path, "colors", "2").stdout
        #expect(text.contains("Last access  never\n"), "\(text)")
        let read = try fixture.run("show", fixture.path, "colors", "1").stdout
        #expect(!read.contains("Last access  never"))
        let json = try fixture.run("show", fixture.path, "colors", "2", "--json").stdout
        #expect(json.contains(#""lastAccessAt" : null"#), "\(json)")
    }

    @Test func showPrettyPrintsJSONOrDumpsHex() throws {
        let fixture = try CLIFixture()
        let pretty = try fixture.run("show", fixture.path, "tiles", CLIFixture.hostileKey)
        #expect(pretty.status == 0)
        #expect(pretty.stdout.contains("Key          evil\\e[31mred\n") && !pretty.stdout.contains("\u{1B}"))
        #expect(pretty.stdout.hasSuffix("{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}\n"))
        let hex = try fixture.run("show", fixture.path, "tiles", "z1/1", "--hex")
        #expect(hex.stdout.contains("Tags         zoom:1"))
        #expect(hex.stdout.contains("00000000  01 01 01 01 01 01 01 01  01 01 01 01 01 01 01 01  |................|"))
        #expect(hex.stdout.split(separator: "\n").filter { $0.hasPrefix("000000") }.count == 13)

        let json = try fixture.run("show", fixture.path, "colors", "1", "--json").object()
        #expect(Set(json.keys) == ["entry", "now", "isExpired", "value"])
        let value = try #require(json["value"] as? [String: Any])
        #expect(value["format"] as? String == "json" && value["text"] as? String == "\"red\"")
        #expect(value["isTruncated"] as? Bool == false)
        let entry = try #require(json["entry"] as? [String: Any])
        #expect(Set(entry.keys) == Self.rowKeys && entry["hits"] as? Int == 9)
        let dump = try fixture.run("show", fixture.path, "tiles", "z1/0", "--hex", "--json").object()
        let lines = try #require((dump["value"] as? [String: Any])?["lines"] as? [[String: Any]])
        #expect(lines.count == 7 && Set(lines[0].keys) == ["offset", "hex", "ascii"])

        let missing = try fixture.run("show", fixture.path, "colors", "42")
        #expect(
            missing.status == 1 && missing.errorLines == ["cachedeck: no entry with key '42' in namespace 'colors'"])
    }

    @Test func timelineCountsRangesAndHours() throws {
        let fixture = try CLIFixture()
        let table = try fixture.run("timeline", fixture.path, "sessions")
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let words = { (label: String) in
            lines.first { $0.hasPrefix(label) }.map { $0.dropFirst(label.count).split(separator: " ") }
        }
        #expect(words("expired (not swept)") == ["3", "42", "B"])
        #expect(words("in 5–60 minutes") == ["2", "28", "B"])
        #expect(words("never") == ["0", "0", "B"])
        let hours = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("+") }
        #expect(hours.count == 48)
        #expect(hours.filter { $0.contains("█") }.count == 1)

        let json = try fixture.run("timeline", fixture.path, "--json").object()
        #expect(Set(json.keys) == ["now", "buckets", "hourly"], "no namespace: the whole store")
        let buckets = try #require(json["buckets"] as? [[String: Any]])
        #expect(
            buckets.map { $0["kind"] as? String } == [
                "expired", "withinMinute", "withinFiveMinutes", "withinHour", "withinDay", "withinWeek", "later",
                "never",
            ])
        #expect(buckets.first.map { Set($0.keys) } == ["kind", "until", "entries", "bytes"])
        #expect(buckets.last?["entries"] as? Int == 3, "colors never expire")
        let hourly = try #require(json["hourly"] as? [[String: Any]])
        #expect(
            hourly.count == 48
                && Set(hourly[0].keys) == ["hour", "from", "until", "entries", "bytes"])
    }

    @Test func statsSumsTelemetryOverWindows() throws {
        let fixture = try CLIFixture()
        let table = try fixture.run("stats", fixture.path, "--namespace", "colors")
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Activity of namespace colors, from the telemetry of 1 attached process (0 live)")
        #expect(lines.dropFirst().first?.hasPrefix("last  requests  hits  misses") == true)
        #expect(
            lines.suffix(4).map { $0.split(separator: " ").prefix(4) } == [
                ["1m", "10", "9", "1"], ["5m", "10", "9", "1"], ["1h", "10", "9", "1"], ["24h", "10", "9", "1"],
            ])

        let json = try fixture.run("stats", fixture.path, "--json").object()
        #expect(Set(json.keys) == ["liveProcesses", "processes", "windows"])
        let windows = try #require(json["windows"] as? [[String: Any]])
        #expect(windows.map { $0["name"] as? String } == ["1m", "5m", "1h", "24h"])
        let hour = try #require(windows[2]["activity"] as? [String: Any])
        #expect(hour["sets"] as? Int == 19 && hour["durationMilliseconds"] as? Int == 3_600_000)

        let unknown = try fixture.run("stats", fixture.path, "--namespace", "nope")
        #expect(unknown.status == 1 && unknown.errorLines == ["cachedeck: no namespace named 'nope'"])
    }

    @Test func statsWatchPrintsALinePerIntervalUntilInterrupted() throws {
        let fixture = try CLIFixture()
        let counted = try fixture.run("stats", fixture.path, "--watch", "--count", "1", "--json")
        #expect(counted.status == 0)
        let line = try #require(counted.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["activity", "liveProcesses"] && counted.stdout.split(separator: "\n").count == 1)
        #expect(
            (object["activity"] as? [String: Any])?["durationMilliseconds"] as? Int == 5000,
            "rates over the last 5 s, whatever the interval")

        let watching = try fixture.start("stats", fixture.path, "--watch", "--interval", "60")
        try watching.waitForOutput("a first line") { $0.split(separator: "\n").count >= 2 }
        watching.signal(SIGINT)
        let result = try watching.wait()
        #expect(result.status == 0 && result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("time") && lines[0].hasSuffix("live"))
        #expect(lines[1].hasSuffix("0"), "no live process")
    }

    @Test func helpDescribesEveryCommand() throws {
        let fixture = try CLIFixture()
        let help = try fixture.run("--help")
        #expect(help.status == 0)
        for command in ["info", "namespaces", "ls", "show", "timeline", "stats", "check", "sweep", "clear", "audit"] {
            #expect(help.stdout.contains("  \(command) "), "\(command) is listed")
            let own = try fixture.run(command, "--help")
            #expect(own.status == 0 && own.stdout.contains("USAGE: cachedeck \(command)"))
        }
    }
}
