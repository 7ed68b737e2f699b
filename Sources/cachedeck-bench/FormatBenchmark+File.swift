import CacheCore
import Foundation

/// What the `format` file holds, computed from each entry's number `i`, so that every count a
/// check expects is known without reading the file back:
/// - key `g<i % 10>/k<i, 8 digits>` (so prefix `g3/` selects a tenth);
/// - a value of 200–1,848 bytes (1,024 distinct ones, about 1 KB on average);
/// - tag `hot` on a tenth, `tenant:42` on another tenth;
/// - a lifetime: never for a tenth, already expired for a twentieth, else 1–17 hours.
struct FormatFilePlan {
    enum Lifetime: Hashable {
        case never
        case expired
        case hours(Int)
    }

    static let namespace = "bench"
    static let otherNamespace = "other"
    static let sweepNamespace = "sweep"

    let entries: Int
    private let values: [Data]

    init(entries: Int) {
        self.entries = entries
        var generator = SplitMix64(seed: 0xF0_4A7)
        values = (0..<1024).map { index in
            Workload.values(count: 1, size: 200 + index * 1649 / 1024, generator: &generator)[0]
        }
    }

    func key(_ index: Int) -> String { "g\(index % 10)/" + Workload.key("k", index) }

    /// The entry number of a key ``key(_:)`` made.
    func index(ofKey key: String) -> Int? { Int(key.dropFirst(4)) }

    func value(_ index: Int) -> Data { values[index % values.count] }

    /// Key plus value bytes, as the namespace's byte counter counts them.
    func size(_ index: Int) -> Int { key(index).utf8.count + value(index).count }

    func tags(_ index: Int) -> [String] {
        switch (index / 7) % 10 {
        case 3: [Self.tag]
        case 4: ["tenant:42"]
        default: []
        }
    }

    func lifetime(_ index: Int) -> Lifetime {
        switch (index / 3) % 20 {
        case 0, 1: .never
        case 2: .expired
        case let slot: .hours(slot - 2)
        }
    }

    /// The write order: batches of up to `size` entries sharing tags and lifetime, the
    /// (tags, lifetime) groups taking turns so that row ids interleave across them.
    func batches(size: Int) -> [[Int]] {
        var groups: [[Int]] = []
        var groupOf: [String: Int] = [:]
        for index in 0..<entries {
            let name = "\(tags(index))|\(lifetime(index))"
            let group = groupOf[name] ?? groups.count
            if group == groups.count {
                groupOf[name] = group
                groups.append([])
            }
            groups[group].append(index)
        }
        var batches: [[Int]] = []
        var offset = 0
        while groups.contains(where: { offset < $0.count }) {
            for group in groups where offset < group.count {
                batches.append(Array(group[offset..<min(offset + size, group.count)]))
            }
            offset += size
        }
        return batches
    }

    static func expiration(_ lifetime: Lifetime) -> Expiration {
        switch lifetime {
        case .never: .never
        case .expired: .at(Date(timeIntervalSinceNow: -3600))
        case .hours(let hours): .after(.seconds(hours * 3600))
        }
    }

    /// The filter the filtered purge uses: size over 1,500 bytes and less than 5.5 hours to
    /// live (expired entries included), about 6% of the entries.
    static let filter = EntryFilter([
        .size(.greater, bytes: 1500), .timeToLive(.less, milliseconds: 5 * 3_600_000 + 1_800_000),
    ])

    /// Whether entry `index` matches ``filter`` (during the first half hour after the build).
    func matchesFilter(_ index: Int) -> Bool {
        guard size(index) > 1500 else { return false }
        switch lifetime(index) {
        case .never: return false
        case .expired: return true
        case .hours(let hours): return hours <= 5
        }
    }

    /// Whether `row` is an entry the plan wrote, with the size, tags and lifetime it wrote.
    func wrote(_ row: EntryRow, now: Int64) -> Bool {
        guard let index = index(ofKey: row.key), index < entries, key(index) == row.key else { return false }
        return size(index) == row.size && tags(index) == row.tags
            && (lifetime(index) == .never) == (row.expiresAt == nil)
            && (lifetime(index) == .expired) == row.isExpired(at: now)
    }

    /// Entries of the plan that meet `condition`.
    func count(where condition: (Int) -> Bool) -> Int { (0..<entries).count(where: condition) }

    /// The keys of the entries that meet `condition`.
    func keys(where condition: (Int) -> Bool) -> [String] { (0..<entries).filter(condition).map(key) }

    /// Up to `limit` keys, spread over the entries that meet `condition` and have not expired.
    func sampleKeys(_ limit: Int, where condition: (Int) -> Bool = { _ in true }) -> [String] {
        let live = (0..<entries).filter { condition($0) && lifetime($0) != .expired }
        let step = max(live.count / limit, 1)
        return stride(from: 0, to: live.count, by: step).prefix(limit).map { key(live[$0]) }
    }

    /// The prefix of the prefix purge, and the entries it selects (a tenth).
    static let prefix = "g3/"
    func hasPrefix(_ index: Int) -> Bool { index % 10 == 3 }

    /// The tag of the tag purge, and the entries that carry it (a tenth).
    static let tag = "hot"
    func isTagged(_ index: Int) -> Bool { tags(index).contains(Self.tag) }

    /// The entries of the explicit-keys purge: 8%, spread over the key space like marks.
    func isMarked(_ index: Int) -> Bool { index % 25 == 1 || index % 25 == 2 }
}

/// One entry's sort columns, as the reference walk or a page read them.
struct ReferenceRow {
    let id: Int64
    let key: String
    let size: Int
    let createdAt: Int64
    let expiresAt: Int64?
    let staleUntil: Int64?
    let lastAccessAt: Int64
    let hits: Int

    init(_ row: EntryRow) {
        id = row.id
        key = row.key
        size = row.size
        createdAt = row.createdAt
        expiresAt = row.expiresAt
        staleUntil = row.staleUntil
        lastAccessAt = row.lastAccessAt ?? row.createdAt
        hits = row.hits
    }

    /// The value of `field`, as text.
    func value(of field: EntrySortField) -> String {
        switch field {
        case .key: key
        case .size: "\(size)"
        case .created: "\(createdAt)"
        case .expires: expiresAt.map { "\($0)" } ?? "never"
        case .lastAccess: "\(lastAccessAt)"
        case .hits: "\(hits)"
        case .sortValue: "none"
        }
    }
}

extension FormatBenchmark {
    /// Builds the file through the public API and records how fast that went.
    func buildFile() throws {
        progress("Writing \(plan.entries) entries of about 1 KB in batched sets…")
        let bench = try app.dataCache(FormatFilePlan.namespace, key: String.self)
        let (_, benchTime) = try timed {
            for batch in plan.batches(size: settings.batchSize) {
                try bench.set(
                    batch.map { (key: plan.key($0), value: plan.value($0)) },
                    expiration: FormatFilePlan.expiration(plan.lifetime(batch[0])), tags: plan.tags(batch[0]))
            }
        }
        note(
            "build: \(plan.entries) entries in \(Format.seconds(benchTime)) s "
                + "(\(Format.rate(benchTime / Double(plan.entries))) entries/s, batched sets of \(settings.batchSize))")
        let value = Data(repeating: 0x5A, count: 100)
        for (name, count, prefix, expiration) in [
            (FormatFilePlan.otherNamespace, settings.otherEntries, "o", Expiration.never),
            (FormatFilePlan.sweepNamespace, settings.sweepEntries, "x", .at(Date(timeIntervalSinceNow: -3600))),
        ] {
            progress("Writing \(count) entries of 100 bytes to \(name)…")
            let cache = try app.dataCache(name, key: String.self)
            for start in stride(from: 0, to: count, by: settings.batchSize) {
                try cache.set(
                    (start..<min(start + settings.batchSize, count)).map {
                        (key: Workload.key(prefix, $0), value: value)
                    },
                    expiration: expiration)
            }
        }
    }

    /// Reads a skewed fifth of the live keys (some many times) through a store of its own,
    /// closed afterwards so that every access record is in the file before the reference walk
    /// (a flush alone can miss a slice the background thread is still writing). Expired keys
    /// are not read: a read may delete them.
    func recordReads() throws {
        let store = try CacheStore(path: app.path)
        let bench = try store.dataCache(FormatFilePlan.namespace, key: String.self)
        var generator = SplitMix64(seed: 0x4EAD5)
        for _ in 0..<plan.entries / 5 {
            let unit = Double(generator.next() >> 11) / Double(1 << 53)
            let index = Int(unit * unit * unit * Double(plan.entries))
            if plan.lifetime(index) != .expired { _ = try bench.get(plan.key(index)) }
        }
        try store.close()
    }

    /// Every entry of the main namespace, walked in key order through the Inspector (an index
    /// walk with no scan limit), checked against the plan: a row the plan did not write, or
    /// whose size, tags or lifetime differ, is a mismatch.
    func referenceWalk() throws -> (rows: [ReferenceRow], mismatches: Int) {
        var rows: [ReferenceRow] = []
        rows.reserveCapacity(plan.entries)
        var query = EntryQuery(
            namespace: FormatFilePlan.namespace, limit: 10_000, previewBytes: 0, scanLimit: nil)
        var mismatches = 0
        repeat {
            let page = try console.inspector.entries(query)
            for row in page.rows {
                rows.append(ReferenceRow(row))
                if !plan.wrote(row, now: page.now) { mismatches += 1 }
            }
            query.after = page.next
        } while query.after != nil
        if rows.count != plan.entries { mismatches += abs(plan.entries - rows.count) }
        return (rows, mismatches)
    }
}
