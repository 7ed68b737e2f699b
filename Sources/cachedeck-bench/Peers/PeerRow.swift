import Foundation

/// One operation of one scenario: p50 and p99 per engine, and CacheCore's ratios.
struct PeerRow {
    let scenario: PeerScenario
    let operation: String
    let percentiles: [PeerEngine: (p50: Double, p99: Double)]

    static func rows(scenario: PeerScenario, results: [PeerEngine: PeerLatencies]) -> [PeerRow] {
        [("get", \PeerLatencies.get), ("set", \.set), ("delete", \.delete)].map { name, path in
            PeerRow(
                scenario: scenario, operation: name,
                percentiles: results.compactMapValues { latencies in
                    let samples = latencies[keyPath: path].sorted()
                    guard !samples.isEmpty else { return nil }
                    return (percentile(samples, 0.5), percentile(samples, 0.99))
                })
        }
    }

    /// CacheCore's p50 over `engine`'s.
    func ratio(to engine: PeerEngine) -> Double? {
        guard let ours = percentiles[.cacheCore]?.p50, let theirs = percentiles[engine]?.p50 else { return nil }
        return ours / theirs
    }

    var line: String {
        let cells = PeerEngine.allCases.map { engine in
            percentiles[engine].map { "\(engine.title) \(Self.micro($0.p50))/\(Self.micro($0.p99)) µs" }
                ?? "\(engine.title) —"
        }
        return "\(scenario.label), \(operation): " + cells.joined(separator: ", ")
    }

    static func markdown(_ rows: [PeerRow], sizes: PeerSizes) -> String {
        var lines = [
            "\(sizes.keys) keys, \(sizes.operations) operations per worker (+\(sizes.deletes) deletes); "
                + "p50 / p99 in µs per operation; ratios are CacheCore's p50 over the peer's.",
            "",
            "| scenario | op | CacheCore | raw SQLite | diskcache \(DiskcachePeer.version) | vs raw | vs diskcache |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let cells = PeerEngine.allCases.map { engine in
                row.percentiles[engine].map { "\(micro($0.p50)) / \(micro($0.p99))" } ?? "—"
            }
            let ratios = [PeerEngine.rawSQLite, .diskcache].map { engine in
                row.ratio(to: engine).map { String(format: "%.2f×", $0) } ?? "—"
            }
            lines.append(
                "| \(row.scenario.label) | \(row.operation) | " + (cells + ratios).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private static func percentile(_ sorted: [Int], _ fraction: Double) -> Double {
        Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
    }

    private static func micro(_ nanoseconds: Double) -> String { String(format: "%.1f", nanoseconds / 1000) }
}
