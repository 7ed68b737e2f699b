import CacheCore
import Foundation

/// Times Inspector calls on one large file opened read-only, as the console opens it: the
/// first call of each operation and the median of the repeats after it.
struct InspectorBenchmark {
    let path: String
    let entries: Int
    let valueBytes: Int
    let repeats: Int

    /// docs/ARCHITECTURE.md: the console's first screen of a 1M-entry / 1 GB file within 150 ms.
    static let firstScreenBudgetMilliseconds = 150.0

    /// Builds the file unless one is already there.
    func prepareFile() throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            print("Reusing \(path)")
            return
        }
        progress("Building \(path): \(entries) entries of about \(valueBytes) bytes…")
        let started = ContinuousClock.now
        try InspectorBenchFile(path: path, entries: entries, valueBytes: valueBytes).build()
        print("Built in \(ContinuousClock.now - started).")
    }

    private struct Row {
        let operation: String
        let first: Double
        let median: Double
        let detail: String
    }

    func run() throws -> String {
        let store = try CacheStore(path: path, options: .inspection())
        defer { try? store.close() }
        let inspector = store.inspector
        var rows: [Row] = []
        var queryRows: [QueryRow] = []
        func measure(_ operation: String, _ body: () throws -> String) throws {
            var detail = ""
            let first = try Timing.nanosecondsPerOperation(1) { detail = try body() }
            let times = try (0..<repeats).map { _ in try Timing.nanosecondsPerOperation(1) { _ = try body() } }
            rows.append(Row(operation: operation, first: first, median: Timing.median(times), detail: detail))
            progress("  \(operation): \(Format.milliseconds(first)) ms first")
        }

        try measure("first screen: summary + namespaces + 50 by key") {
            let summary = try inspector.summary()
            _ = try inspector.namespaces()
            let page = try inspector.entries(EntryQuery(namespace: "bench"))
            return "\(summary.entryCount) entries, \(page.rows.count) rows"
        }
        try measure("summary") { "\(try inspector.summary().fileBytes / 1_000_000) MB file" }
        try measure("namespaces") { "\(try inspector.namespaces().count) namespaces" }
        for field in EntrySortField.allCases {
            for descending in [false, true] {
                let sort = EntrySort(field, descending: descending)
                let name = "\(field.rawValue) \(descending ? "desc" : "asc")"
                try measure("first page, \(name)") {
                    try describe(inspector.entries(EntryQuery(namespace: "bench", sort: sort)))
                }
                let first = try inspector.entries(EntryQuery(namespace: "bench", sort: sort))
                try measure("next page, \(name)") {
                    try describe(inspector.entries(EntryQuery(namespace: "bench", sort: sort, after: first.next)))
                }
            }
        }
        for field in EntrySortField.allCases where !field.hasIndex {
            try measure("first page, \(field.rawValue) desc, no scan limit (exact)") {
                try describe(
                    inspector.entries(
                        EntryQuery(namespace: "bench", sort: EntrySort(field, descending: true), scanLimit: nil)))
            }
            try measure("first page, \(field.rawValue) desc, namespace of 1000") {
                try describe(
                    inspector.entries(EntryQuery(namespace: "small", sort: EntrySort(field, descending: true))))
            }
        }
        for (filter, field) in [
            ("prefix:k0001", EntrySortField.key), ("k00012", .key), ("regex:^k0001[0-9]+7$", .key), ("tag:hot", .key),
            ("size>1KB hits=0 k00", .key), ("no-such-key", .key), ("hits>5000", .key), ("ttl<1h", .expires),
            ("expired", .expires), ("hits>990", .lastAccess),
            ("size>1KB hits=0", .size),
        ] {
            try measure("filter '\(filter)' by \(field.rawValue)") {
                try describe(
                    inspector.entries(
                        EntryQuery(namespace: "bench", sort: EntrySort(field), filter: try EntryFilter(parsing: filter))
                    ))
            }
        }
        // An app's typed query (Cache.entries: live entries, decoded) against the inspector's
        // page of the same order in the same run, which reads no values.
        let bench = try store.dataCache("bench", key: String.self)
        for sort in [
            EntrySort(.key), EntrySort(.expires), EntrySort(.expires, descending: true), EntrySort(.sortValue),
            EntrySort(.sortValue, descending: true),
        ] {
            let name = sort.field.rawValue + (sort.descending ? " desc" : "")
            try measure("Cache.entries, 50 decoded, \(name)") {
                "\(try bench.entries(CacheQuery(orderedBy: sort, limit: 50)).entries.count) entries"
            }
            queryRows.append(QueryRow(row: rows.count - 1, name: name, baseline: sort))
        }
        // By key prefix and tag (the tag's entries under the prefix, ~1% of ~10,000 keys),
        // against the inspector's plain next page by key, the cheapest page there is.
        for sort in [
            EntrySort(.key), EntrySort(.created, descending: true), EntrySort(.expires),
            EntrySort(.sortValue, descending: true),
        ] {
            let name = sort.field.rawValue + (sort.descending ? " desc" : "")
            try measure("Cache.entries, 50 decoded, prefix k0001 tag hot, \(name)") {
                let query = CacheQuery(prefix: "k0001", tags: ["hot"], orderedBy: sort, limit: 50)
                return "\(try bench.entries(query).entries.count) entries"
            }
            queryRows.append(
                QueryRow(row: rows.count - 1, name: "prefix k0001 + tag hot, \(name)", baseline: EntrySort(.key)))
        }
        let id = try inspector.entries(EntryQuery(namespace: "bench", limit: 1)).rows.first?.id ?? 0
        try measure("entry detail") { "\(try inspector.entry(id: id)?.entry.valueBytes ?? 0) value bytes" }
        try measure("expiry timeline, bench") { timeline(try inspector.expiryTimeline(namespace: "bench")) }
        try measure("expiry timeline, whole store") { timeline(try inspector.expiryTimeline()) }
        for kind in TopListKind.allCases {
            try measure("top 20 \(kind.rawValue), whole store") {
                let list = try inspector.top(kind)
                return "\(list.rows.count) rows, examined \(list.examinedRows)"
                    + (list.rankedFromRowID.map { ", ranked ids ≥ \($0)" } ?? ", complete")
            }
        }
        return render(rows) + "\n" + queryVerdicts(rows, queryRows)
    }

    /// docs/library.md: a query page of 50 decoded entries on a 1M-entry namespace.
    static let queryPageBudgetMilliseconds = 5.0

    /// A measured query page: its row, its name, and the order of the inspector page it is
    /// compared with.
    private struct QueryRow {
        let row: Int
        let name: String
        let baseline: EntrySort
    }

    /// Each query page's median against the budget and the inspector's next page in the
    /// baseline order, measured in the same run.
    private func queryVerdicts(_ rows: [Row], _ queries: [QueryRow]) -> String {
        queries.map { query in
            let page = rows[query.row].median / 1e6
            let order = "\(query.baseline.field.rawValue) \(query.baseline.descending ? "desc" : "asc")"
            let baseline = rows.first { $0.operation == "next page, \(order)" }
            let ratio =
                baseline.map {
                    String(format: " (%.2f× the inspector's next page by \(order), no values)", page / ($0.median / 1e6))
                } ?? ""
            let verdict = page <= Self.queryPageBudgetMilliseconds ? "PASS" : "FAIL"
            return
                "Query page, \(query.name): \(String(format: "%.2f", page)) ms\(ratio), budget \(Int(Self.queryPageBudgetMilliseconds)) ms: \(verdict)"
        }.joined(separator: "\n")
    }

    private func describe(_ page: EntryPage) -> String {
        var text = "\(page.rows.count) rows, examined \(page.examinedRows)"
        if page.reachedScanLimit { text += ", scan limit" }
        return text
    }

    private func timeline(_ timeline: ExpiryTimeline) -> String {
        let bytes = timeline.buckets.reduce(Int64(0)) { $0 + $1.bytes }
        return "\(timeline.buckets.map(\.entries).reduce(0, +)) entries, \(bytes) bytes (exact)"
    }

    private func render(_ rows: [Row]) -> String {
        let header = ["operation", "first ms", "median ms", "result"]
        let cells = rows.map {
            [$0.operation, String(format: "%.1f", $0.first / 1e6), String(format: "%.1f", $0.median / 1e6), $0.detail]
        }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ values: [String]) -> String {
            values.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - values[column].count)
                return column == 1 || column == 2 ? padding + values[column] : values[column] + padding
            }.joined(separator: "  ")
        }
        let screen = rows.first.map { max($0.first, $0.median) / 1e6 } ?? .nan
        let verdict = screen <= Self.firstScreenBudgetMilliseconds ? "PASS" : "FAIL"
        return
            ([
                "",
                "Inspector on \(path) (\(entries) + \(InspectorBenchFile.smallEntries) entries, read-only store), "
                    + "median of \(repeats):", line(header),
            ] + cells.map(line) + [
                "First screen: \(String(format: "%.1f", screen)) ms (budget \(Int(Self.firstScreenBudgetMilliseconds)) ms): \(verdict)"
            ]).joined(separator: "\n")
    }
}
