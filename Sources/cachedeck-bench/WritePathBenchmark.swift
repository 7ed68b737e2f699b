import CSQLite
import CacheCore
import Foundation

/// The `writepath` rows (see ``WritePathCommand``). Three writers share the measurement:
/// CacheCore through ``Cache``; `sqlite`, a plain connection on CacheCore's own file running
/// the upsert CacheCore runs (its triggers fire), so the difference to CacheCore is mostly
/// Swift's share; and the floor (``FloorBaseline``). Last, with CacheCore closed, the counter
/// triggers are dropped from the file and the same writes keep the namespace counters
/// exact from the writer instead (one read of the rows' old sizes and one counter update
/// per transaction): the alternative issue #26 asks to measure against triggers. CacheCore,
/// reopened on that file, bounds what it would save CacheCore's own statements. Then
/// ``compareLayouts()`` writes, reads and scans the candidate layouts of ``EntryLayout``.
final class WritePathBenchmark {
    let rounds: Int
    let perRound = 500
    let batchesPerRound = 2
    /// Point writes per side whose WAL frames are counted.
    let framedWrites = 200
    private let directory: TemporaryDirectory
    private let store: CacheStore
    private let floor: FloorBaseline
    private let sqlite: RawConnection
    private let values: [Data]
    private var lines: [[String]] = []
    private var next = 0

    init(directory: TemporaryDirectory, rounds: Int) throws {
        self.directory = directory
        self.rounds = rounds
        store = try CacheStore(path: directory.file("core.sqlite"))
        floor = try FloorBaseline(path: directory.file("floor.sqlite"))
        var generator = SplitMix64(seed: 0x3717_E9A7)
        let values = Workload.values(count: 1024, size: 100, generator: &generator)
        self.values = values
        // As `core` does: every namespace first, a last one filled, so writes land inside the indexes.
        for name in ["reads", "json", "writes", "sweep"] { _ = try store.dataCache(name, key: String.self) }
        let tail = Workload.keys("t", count: 1000)
        try store.dataCache("zz-tail", key: String.self).set(tail.enumerated().map { ($1, values[$0 % 1024]) })
        try floor.fill(namespace: "zz-tail", count: tail.count, key: { tail[$0] }, value: { values[$0 % 1024] })
        sqlite = try RawConnection(path: directory.file("core.sqlite"))
    }

    /// The rows' table so far.
    var table: String {
        Format.table(
            header: ["write", "writer", "wall µs/op", "CPU µs/op", "CPU vs floor", "frames/op", "frames by b-tree"],
            rows: lines, leftAligned: [0, 1, 6]
        ).joined(separator: "\n")
    }

    /// Issue #26's candidate layouts (``EntryLayout/candidates``), each in a file of its own
    /// written in C as CacheCore writes, against a floor of their own, every file filled
    /// alike first (20k entries in another namespace, 1,000 in the last one, and the keys the
    /// delete row takes): a durable set, one with a sort value, a delete, batched sets.
    func compareLayouts() throws {
        let writers = try EntryLayout.candidates.enumerated().map { offset, layout in
            try LayoutWriter(layout, path: directory.file("layout-\(offset).sqlite"))
        }
        let floorPath = directory.file("layout-floor.sqlite")
        let floor = try FloorBaseline(path: floorPath)
        func fill(_ namespace: String, _ keys: [String]) throws {
            for start in stride(from: 0, to: keys.count, by: 1000) {
                let batch = Array(keys[start..<min(start + 1000, keys.count)])
                for writer in writers { try writer.set(namespace, batch, value(start)) }
            }
            try floor.fill(namespace: namespace, count: keys.count, key: { keys[$0] }, value: value)
        }
        let readKeys = Workload.keys("r", count: 20_000)
        try fill("reads", readKeys)
        try fill("zz-tail", Workload.keys("t", count: 1000))
        let sides = writers.count + 1
        func point(_ write: @escaping (LayoutWriter, Int) throws -> Void, floor floorWrite: @escaping (Int) throws -> Void)
            -> [Side<Int>]
        {
            writers.map { writer in Side(writer.layout.name, writer.path) { try write(writer, $0) } }
                + [Side("floor", floorPath, floorWrite)]
        }
        try compare(
            "durable set",
            point({ try $0.set("writes", self.key($1), self.value($1)) }) {
                try floor.set(namespace: "writes", key: self.key($0), value: self.value($0))
            })
        try compare(
            "set with a sort value",
            point({ try $0.set("sorted", self.key($1), self.value($1), sortValue: Int64($1)) }) {
                try floor.set(namespace: "sorted", key: self.key($0), value: self.value($0))
            })
        try fill("writes", (next..<next + ((rounds + 1) * perRound + framedWrites) * sides).map(key))
        try compare(
            "delete",
            point({ writer, index in
                guard try writer.remove("writes", self.key(index)) else { throw BenchError("nothing to delete") }
            }) { index in
                guard try floor.remove(namespace: "writes", key: self.key(index)) else {
                    throw BenchError("nothing to delete")
                }
            })
        // Reads: what the page size costs them (a page's lookups, and a scan's pages).
        let readKey = { (index: Int) in readKeys[index &* 7919 % readKeys.count] }
        try compare(
            "get (20k entries)",
            point({ writer, index in
                guard try writer.get("reads", readKey(index)) != nil else { throw BenchError("missing") }
            }) { index in
                guard try floor.get(namespace: "reads", key: readKey(index)) != nil else { throw BenchError("missing") }
            })
        try measure(
            "scan of 20k values, per entry", operations: readKeys.count,
            writers.map { writer in
                Side(writer.layout.name, writer.path) { _ in _ = try writer.scanValues("reads") }
            } + [Side("floor", floorPath) { _ in _ = try floor.scanValues(namespace: "reads") }])
        try compareBatches(
            "batched sets (1000)",
            writers.map { writer in Side(writer.layout.name, writer.path) { try writer.set("writes", $0, self.value(0)) } }
                + [
                    Side("floor", floorPath) { keys in
                        try floor.inTransaction {
                            for key in keys { try floor.set(namespace: "writes", key: key, value: self.value(0)) }
                        }
                    }
                ])
    }

    /// Runs the rows of CacheCore against its SQL in C and the floor, and of the counters kept
    /// by the writer.
    func run() throws {
        let cache = try store.dataCache("writes", key: String.self)
        let namespaceID = try sqlite.namespaceID("writes")
        let upsert = try CoreUpsert(sqlite, namespaceID: namespaceID)

        try compare(
            "durable set",
            [
                Side("CacheCore", corePath) { try cache.set(self.value($0), for: self.key($0)) },
                Side("its upsert in C (triggers)", corePath) { try upsert.set(self.key($0), self.value($0)) },
                Side("floor", floorPath) { try self.floor.set(namespace: "writes", key: self.key($0), value: self.value($0)) },
            ])
        // The keys the delete row takes, written to both files first (untimed).
        let doomed = (next..<next + ((rounds + 1) * perRound + framedWrites) * 2).map(key)
        try cache.set(doomed.map { ($0, value(0)) })
        try floor.fill(namespace: "writes", count: doomed.count, key: { doomed[$0] }, value: value)
        try compare(
            "delete",
            [
                Side("CacheCore", corePath) { index in
                    guard try cache.remove(self.key(index)) else { throw BenchError("nothing to delete") }
                },
                Side("floor", floorPath) { index in
                    guard try self.floor.remove(namespace: "writes", key: self.key(index)) else {
                        throw BenchError("nothing to delete")
                    }
                },
            ])
        try compareBatches(
            "batched sets (1000)",
            [
                Side("CacheCore", corePath) { keys in try cache.set(keys.map { ($0, self.value(0)) }) },
                Side("its upserts in C (triggers)", corePath) { keys in
                    try self.sqlite.inTransaction { for key in keys { try upsert.set(key, self.value(0)) } }
                },
                Side("floor", floorPath) { keys in
                    try self.floor.inTransaction {
                        for key in keys { try self.floor.set(namespace: "writes", key: key, value: self.value(0)) }
                    }
                },
            ])

        try store.close()
        try sqlite.execute("DROP TRIGGER entries_count_insert; DROP TRIGGER entries_count_resize")
        let counted = try StoreCountedUpsert(sqlite, upsert: upsert)
        // CacheCore again on the file without the triggers: its counters go stale, so this
        // is the most that dropping the triggers could save its own statements.
        let uncounted = try CacheStore(path: directory.file("core.sqlite"))
        defer { try? uncounted.close() }
        let bare = try uncounted.dataCache("writes", key: String.self)
        try compare(
            "durable set, counters by the writer",
            [
                Side("CacheCore, counters not kept", corePath) { try bare.set(self.value($0), for: self.key($0)) },
                Side("in C, no triggers", corePath) { try counted.set([self.key($0)], self.value($0)) },
                Side("floor", floorPath) { try self.floor.set(namespace: "writes", key: self.key($0), value: self.value($0)) },
            ])
        try compareBatches(
            "batched sets, counters by the writer",
            [
                Side("CacheCore, counters not kept", corePath) { keys in try bare.set(keys.map { ($0, self.value(0)) }) },
                Side("in C, no triggers", corePath) { keys in try counted.set(keys, self.value(0)) },
                Side("floor", floorPath) { keys in
                    try self.floor.inTransaction {
                        for key in keys { try self.floor.set(namespace: "writes", key: key, value: self.value(0)) }
                    }
                },
            ])
    }

    // MARK: Measuring

    private var corePath: String { directory.file("core.sqlite") }
    private var floorPath: String { directory.file("floor.sqlite") }

    /// One writer of a row: its name, the path of its file (for its WAL frames), and one
    /// write (of a key number, or of a batch of keys).
    struct Side<Input> {
        let name: String
        let path: String
        let write: (Input) throws -> Void

        init(_ name: String, _ path: String, _ write: @escaping (Input) throws -> Void) {
            (self.name, self.path, self.write) = (name, path, write)
        }
    }

    private func key(_ index: Int) -> String { Workload.key("w", index) }
    private func value(_ index: Int) -> Data { values[index % values.count] }

    /// Interleaved rounds of ``perRound`` writes of fresh key numbers per side, then the
    /// frames of 50 more each.
    private func compare(_ write: String, _ sides: [Side<Int>]) throws {
        try measure(
            write, operations: perRound,
            sides.map { side in
                Side(side.name, side.path) { count in
                    for _ in 0..<count { try side.write(self.take(1)) }
                }
            })
    }

    /// ``compare(_:_:)`` with batches of 1000 fresh keys; figures are per entry.
    private func compareBatches(_ write: String, _ sides: [Side<[String]>]) throws {
        try measure(
            write, operations: batchesPerRound * 1000,
            sides.map { side in
                Side(side.name, side.path) { count in
                    for _ in 0..<count / 1000 {
                        let start = self.take(1000)
                        try side.write((start..<start + 1000).map(self.key))
                    }
                }
            })
    }

    /// The first of `count` fresh key numbers.
    private func take(_ count: Int) -> Int {
        defer { next += count }
        return next
    }

    /// Runs each side's `operations` writes (its `write` gets the count) in interleaved
    /// rounds after a warm-up, then once more for its WAL frames; adds the row's lines.
    private func measure(_ write: String, operations: Int, _ sides: [Side<Int>]) throws {
        var samples = Array(repeating: (wall: [Double](), cpu: [Double]()), count: sides.count)
        for round in 0...rounds {
            for offset in sides.indices {
                let index = (offset + round) % sides.count
                let cpu = processCPUMicroseconds()
                let wall = try Timing.nanosecondsPerOperation(operations) { try sides[index].write(operations) }
                guard round > 0 else { continue }
                samples[index].wall.append(wall / 1000)
                samples[index].cpu.append((processCPUMicroseconds() - cpu) / Double(operations))
            }
        }
        let floorCPU = Timing.median(samples[sides.count - 1].cpu)
        for (index, side) in sides.enumerated() {
            let frameOperations = operations >= 1000 ? 1000 : framedWrites
            let frames = try walFrames(of: side.path) { try side.write(frameOperations) }
            let cpu = Timing.median(samples[index].cpu)
            lines.append([
                index == 0 ? write : "", side.name, String(format: "%.1f", Timing.median(samples[index].wall)),
                String(format: "%.1f", cpu), String(format: "%.2f×", cpu / floorCPU),
                String(format: "%.2f", Double(frames.values.reduce(0, +)) / Double(frameOperations)),
                frames.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            ])
            progress("  \(write), \(side.name): \(lines.last?.dropFirst(2).joined(separator: " | ") ?? "")")
        }
    }

    /// The WAL frames `body` writes into `file`, by the b-tree (table or index) of their page.
    private func walFrames(of path: String, _ body: () throws -> Void) throws -> [String: Int] {
        let connection = path == corePath ? sqlite : try RawConnection(path: path)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try body()
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let pageSize = Int(try connection.integer("PRAGMA page_size"))
        let tree = try connection.prepare("SELECT name FROM dbstat WHERE pageno = ?1")
        var frames: [String: Int] = [:]
        // A 32-byte header, then frames: a 24-byte header (page number first) and the page.
        for offset in stride(from: 32, through: wal.count - 24 - pageSize, by: 24 + pageSize) {
            let page = wal[offset..<offset + 4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            sqlite3_bind_int64(tree.handle, 1, page)
            let name =
                sqlite3_step(tree.handle) == SQLITE_ROW
                ? String(cString: sqlite3_column_text(tree.handle, 0)) : "pointer map / free list"
            sqlite3_reset(tree.handle)
            frames[name.replacingOccurrences(of: "sqlite_autoindex_entries_1", with: "key index"), default: 0] += 1
        }
        return frames
    }
}

/// User and system CPU time of the whole process (CacheCore's background threads included).
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    return Double(seconds) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// The upsert CacheCore's autocommit set runs (`SQLiteConnection.upsertEntry(namespaceID:ifLiveAs:…)`,
/// copied: the bench cannot reach CacheCore's internals), driven in C.
private final class CoreUpsert {
    let connection: RawConnection
    let namespaceID: Int64
    private let statement: RawStatement

    init(_ connection: RawConnection, namespaceID: Int64) throws {
        self.connection = connection
        self.namespaceID = namespaceID
        statement = try connection.prepare(
            """
            INSERT OR IGNORE INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags, sort_value)
            VALUES ((SELECT id FROM namespaces WHERE id = ?1 AND name = 'writes'), ?2, ?3, ?4, ?5, ?6, ?6, ?5, '', NULL, NULL)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags,
                sort_value = excluded.sort_value
            """)
    }

    /// The entry's size as CacheCore counts it: key and value bytes.
    static func size(_ key: String, _ value: Data) -> Int64 { Int64(key.utf8.count + value.count) }

    /// Upserts `value` under `key`, expiring in 24 hours as CacheCore's default policy does.
    func set(_ key: String, _ value: Data) throws {
        let handle = statement.handle
        defer { sqlite3_reset(handle) }
        let now = wallClockMilliseconds()
        sqlite3_bind_int64(handle, 1, namespaceID)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        value.withUnsafeBytes { _ = sqlite3_bind_blob(handle, 3, $0.baseAddress, Int32($0.count), sqliteTransient) }
        sqlite3_bind_int64(handle, 4, Self.size(key, value))
        sqlite3_bind_int64(handle, 5, now)
        sqlite3_bind_int64(handle, 6, now + FloorBaseline.lifetime)
        try connection.check(sqlite3_step(handle), "upsert")
    }
}

/// ``CoreUpsert`` on a file without counter triggers, the writer keeping the counters exact:
/// `BEGIN IMMEDIATE`, one read of the old sizes of the keys about to be written, the upserts,
/// one counter update, `COMMIT`.
private final class StoreCountedUpsert {
    let upsert: CoreUpsert
    private let oldSizes: RawStatement
    private let counters: RawStatement

    init(_ connection: RawConnection, upsert: CoreUpsert) throws {
        self.upsert = upsert
        oldSizes = try connection.prepare(
            """
            SELECT count(*), coalesce(sum(size), 0) FROM entries
            WHERE namespace_id = ?1 AND key IN (SELECT value FROM json_each(?2))
            """)
        counters = try connection.prepare(
            "UPDATE namespaces SET entry_count = entry_count + ?2, total_bytes = total_bytes + ?3 WHERE id = ?1")
    }

    /// Writes `value` under each of `keys` (distinct) in one transaction.
    func set(_ keys: [String], _ value: Data) throws {
        let connection = upsert.connection
        try connection.inTransaction {
            let json = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
            sqlite3_bind_int64(oldSizes.handle, 1, upsert.namespaceID)
            sqlite3_bind_text(oldSizes.handle, 2, json, -1, sqliteTransient)
            try connection.check(sqlite3_step(oldSizes.handle), "old sizes")
            let (existing, oldBytes) = (sqlite3_column_int64(oldSizes.handle, 0), sqlite3_column_int64(oldSizes.handle, 1))
            sqlite3_reset(oldSizes.handle)
            var bytes: Int64 = 0
            for key in keys {
                try upsert.set(key, value)
                bytes += CoreUpsert.size(key, value)
            }
            sqlite3_bind_int64(counters.handle, 1, upsert.namespaceID)
            sqlite3_bind_int64(counters.handle, 2, Int64(keys.count) - existing)
            sqlite3_bind_int64(counters.handle, 3, bytes - oldBytes)
            defer { sqlite3_reset(counters.handle) }
            try connection.check(sqlite3_step(counters.handle), "counters")
        }
    }
}
