import CacheCore

/// Rails Solid Cache: `solid_cache_entries(id, key, value, key_hash, byte_size, created_at)`.
/// No expiry column: entries age out by its `max_age`, oldest first (FIFO), so the timeline
/// shows ages.
enum SolidCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        let columns = ["id", "key", "value", "byte_size", "created_at"]
        guard schema.has("solid_cache_entries", columns) else { return nil }
        let table = ForeignTable(
            name: "solid_cache_entries", rowID: "id", key: "key", value: "value", size: "ifnull(byte_size, 0)",
            created: TimeColumn(column: "created_at", unit: schema.timeUnit("solid_cache_entries", "created_at")))
        return ForeignLayout(
            kind: .solidCache, sections: [ForeignSection(namespace: "entries", file: file, table: table)], files: [file])
    }
}
