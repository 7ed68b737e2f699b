import CacheCore
import Foundation

extension FormatBenchmark {
    /// Row: the Inspector's counts of the main namespace against what was written (entries,
    /// bytes) and against what point reads of every written key return (live entries).
    func checkCounts(when: String) throws {
        let name = FormatFilePlan.namespace
        let cache = try reader.dataCache(name, key: String.self)
        var found = 0
        for index in 0..<plan.entries where try cache.get(plan.key(index)) != nil { found += 1 }
        let bytes = (0..<plan.entries).reduce(0) { $0 + plan.size($1) }
        let summary = try console.inspector.namespace(name)
        let exact = summary.entryCount == plan.entries && summary.liveEntryCount == found && summary.bytes == bytes
        record(
            GoalRow(
                measure: "namespace counts (Inspector) vs written and read, \(when)",
                figure: "entries \(Format.grouped(summary.entryCount))/\(Format.grouped(plan.entries)), "
                    + "live \(Format.grouped(summary.liveEntryCount))/\(Format.grouped(found)), "
                    + "bytes \(Format.grouped(Int(summary.bytes)))/\(Format.grouped(bytes))",
                goal: "equal", verdict: Verdict(exact)))
    }

    /// Rows: `Admin.preview` for a key, a prefix, a tag, the namespace and the marked keys, and
    /// `Inspector.count` for a filter: time and exactness against the plan.
    func measurePreviews() throws {
        let name = FormatFilePlan.namespace
        let middle = plan.entries / 2
        let previews: [(String, AdminTarget, Int)] = [
            ("key", .invalidate(.key(namespace: name, key: plan.key(middle))), 1),
            (
                "prefix \(FormatFilePlan.prefix)", .invalidate(.prefix(namespace: name, prefix: FormatFilePlan.prefix)),
                plan.count(where: plan.hasPrefix)
            ),
            (
                "tag \(FormatFilePlan.tag)", .invalidate(.tag(FormatFilePlan.tag, namespace: name)),
                plan.count(where: plan.isTagged)
            ),
            ("namespace (clear)", .clear(namespace: name), plan.entries),
            (
                "\(Format.grouped(plan.count(where: plan.isMarked))) marked keys",
                .invalidate(.keys(namespace: name, keys: plan.keys(where: plan.isMarked))),
                plan.count(where: plan.isMarked)
            ),
        ]
        for (label, target, expected) in previews {
            let (impact, first, median) = try repeated { try console.admin.preview(target) }
            record(
                GoalRow(
                    measure: "preview count, \(label)",
                    figure: describe(first: first, median: median) + counted(impact.entries, expected: expected),
                    goal: "≤ 200 ms, exact", verdict: Verdict(median <= 200e6 && impact.entries == expected)))
        }
        let expected = plan.count(where: plan.matchesFilter)
        let expectedBytes = (0..<plan.entries).filter(plan.matchesFilter).reduce(0) { $0 + plan.size($1) }
        let (count, first, median) = try repeated {
            try console.inspector.count(namespace: name, filter: FormatFilePlan.filter)
        }
        record(
            GoalRow(
                measure: "filter count '\(FormatFilePlan.filter)' (Inspector.count)",
                figure: describe(first: first, median: median) + counted(count.entries, expected: expected)
                    + ", \(Format.grouped(count.bytes)) bytes"
                    + (count.bytes == expectedBytes ? "" : " ≠ \(Format.grouped(expectedBytes))"),
                goal: "≤ 1 s, exact",
                verdict: Verdict(median <= 1e9 && count.entries == expected && count.bytes == expectedBytes)))
    }

    /// `, 10,000 entries` or `, 9,998 entries ≠ 10,000`.
    func counted(_ count: Int, expected: Int) -> String {
        ", \(Format.grouped(count)) entries" + (count == expected ? "" : " ≠ \(Format.grouped(expected))")
    }

    /// The keys of the main namespace's entries that `filter` matches, read as the console
    /// collects them for an action (no admin target takes a filter): `Inspector.keys`.
    func matchingKeys(_ filter: EntryFilter) throws -> [String] {
        try console.inspector.keys(namespace: FormatFilePlan.namespace, filter: filter, limit: .max)
    }

    /// Rows: the first page of the main namespace in every order the Inspector offers, as the
    /// console asks for it (default query), against the exact order computed from the
    /// reference walk: the page's values must be the exact order's, row by row, and each row
    /// must be the walk's. Ties may come in any order (the figure says when they do not follow
    /// the row ids, as ``EntrySort`` documents).
    func measureSorts(_ rows: [ReferenceRow]) throws {
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        for field in EntrySortField.allCases {
            let ascending = rows.sorted { Self.precedes($0, $1, by: field) }
            for descending in [false, true] {
                let exact: [ReferenceRow] =
                    descending
                    ? ascending.suffix(settings.pageSize).reversed() : Array(ascending.prefix(settings.pageSize))
                let query = EntryQuery(
                    namespace: FormatFilePlan.namespace, sort: EntrySort(field, descending: descending),
                    limit: settings.pageSize)
                let (page, first, median) = try repeated { try console.inspector.entries(query) }
                let listed = page.rows.map(ReferenceRow.init)
                let wrong =
                    zip(listed, exact).enumerated().first {
                        $0.element.0.value(of: field) != $0.element.1.value(of: field)
                    }?
                    .offset ?? (listed.count == exact.count ? nil : min(listed.count, exact.count))
                let changed = listed.filter { byID[$0.id]?.value(of: field) != $0.value(of: field) }.count
                var figure = describe(first: first, median: median)
                if let wrong {
                    figure += ", order wrong from row \(wrong + 1)"
                    figure +=
                        wrong < min(listed.count, exact.count)
                        ? ": \(listed[wrong].value(of: field)) where the exact order has \(exact[wrong].value(of: field))"
                        : ": the page has \(listed.count) rows"
                } else {
                    figure += ", order exact"
                    if listed.map(\.id) != exact.map(\.id) { figure += " (ties not in id order)" }
                }
                if changed > 0 { figure += "; \(changed) listed rows differ from the walk" }
                // Issue #26: orders without an index (last access, hits) are an exact scan, ≤ 500 ms.
                let budget: Double = [.lastAccess, .hits].contains(field) ? 500e6 : 200e6
                record(
                    GoalRow(
                        measure: "first page by \(field.rawValue) \(descending ? "desc" : "asc")", figure: figure,
                        goal: "≤ \(Int(budget / 1e6)) ms, exact",
                        verdict: Verdict(median <= budget && wrong == nil && changed == 0)))
            }
        }
    }

    /// The Inspector's ascending order by `field`: the field, then the row id; keys in byte
    /// order; by expiry, expiring entries (by expiry, then stale limit) before the others.
    static func precedes(_ a: ReferenceRow, _ b: ReferenceRow, by field: EntrySortField) -> Bool {
        switch field {
        case .key, .sortValue:
            // The reference rows have no sort values: that order lists them by key.
            if a.key != b.key { return a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
        case .size:
            if a.size != b.size { return a.size < b.size }
        case .created:
            if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
        case .lastAccess:
            if a.lastAccessAt != b.lastAccessAt { return a.lastAccessAt < b.lastAccessAt }
        case .hits:
            if a.hits != b.hits { return a.hits < b.hits }
        case .expires:
            let left = (a.expiresAt == nil ? 1 : 0, a.expiresAt ?? 0, a.staleUntil == nil ? 0 : 1, a.staleUntil ?? 0)
            let right = (b.expiresAt == nil ? 1 : 0, b.expiresAt ?? 0, b.staleUntil == nil ? 0 : 1, b.staleUntil ?? 0)
            if left != right { return left < right }
        }
        return a.id < b.id
    }
}
