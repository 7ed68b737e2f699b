import CacheCore
import Foundation

/// python-diskcache: `Cache` and `Settings` in `cache.db`; values of `disk_min_file_size`
/// (32 KiB) and more in `ab/cd/<hex>.val` files beside it, whose bytes `size` counts; counters
/// in `Settings` kept by its triggers. Reads are timed and counted only under the eviction
/// policies that need them (`least-recently-used`, `least-frequently-used`).
enum DiskCacheFormat {
    static let columns = [
        "rowid", "key", "raw", "store_time", "expire_time", "access_time", "access_count", "tag", "size", "mode",
        "filename", "value",
    ]

    /// The `Cache` table of `file`, when `schema` is python-diskcache's.
    static func table(_ schema: ForeignSchema, file: ForeignFile) throws -> ForeignTable? {
        guard schema.has("Cache", columns), schema.has("Settings", ["key", "value"]) else { return nil }
        let policy = try file.read { connection in
            try connection.withDynamicStatement("SELECT value FROM Settings WHERE key = 'eviction_policy'") {
                try $0.firstRow { $0.text(0) }
            }
        }
        return ForeignTable(
            name: "Cache", key: "key", keyIsPickled: "raw = 0", value: "value",
            size: ForeignTable.bytes("key", "value") + " + max(ifnull(size, 0), 0)", sideFile: "filename",
            valueKind: "CASE mode WHEN 4 THEN 'pickle' WHEN 3 THEN 'text' END",
            created: TimeColumn(column: "store_time", unit: .seconds),
            expires: TimeColumn(column: "expire_time", unit: .seconds),
            accessed: policy == "least-recently-used" ? TimeColumn(column: "access_time", unit: .seconds) : nil,
            hits: policy == "least-frequently-used" ? "access_count" : nil, tag: "tag")
    }

    /// A single cache (`cache.db`) or a FanoutCache folder (`000/cache.db`, …: one namespace
    /// per shard).
    static func layout(folder: String) throws -> ForeignLayout? {
        let shards = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.count == 3 && $0.allSatisfy(\.isNumber) }.sorted()
        var sections: [ForeignSection] = []
        for shard in shards {
            let file = ForeignFile(path: (folder as NSString).appendingPathComponent(shard + "/cache.db"))
            guard file.isSQLite, let table = try table(try ForeignSchema.read(file), file: file) else { continue }
            sections.append(ForeignSection(namespace: shard, file: file, table: table))
        }
        guard !sections.isEmpty else { return nil }
        return ForeignLayout(kind: .fanoutCache, sections: sections, files: sections.map(\.file))
    }
}
