import CacheCore

/// Laravel's database cache store: `cache(key, value, expiration)` (PHP `serialize`
/// values, expiration in seconds) and its `cache_locks(key, owner, expiration)`.
enum LaravelCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        guard schema.has("cache", ["key", "value", "expiration"]) else { return nil }
        var sections = [
            ForeignSection(
                namespace: "cache", file: file,
                table: ForeignTable(
                    name: "cache", key: "key", value: "value", size: ForeignTable.bytes("key", "value"),
                    expires: TimeColumn(column: "expiration", unit: .seconds)))
        ]
        if schema.has("cache_locks", ["key", "owner", "expiration"]) {
            sections.append(
                ForeignSection(
                    namespace: "locks", file: file,
                    table: ForeignTable(
                        name: "cache_locks", key: "key", value: "owner",
                        size: ForeignTable.bytes("key", "owner"),
                        expires: TimeColumn(column: "expiration", unit: .seconds))))
        }
        return ForeignLayout(kind: .laravel, sections: sections, files: [file])
    }
}
