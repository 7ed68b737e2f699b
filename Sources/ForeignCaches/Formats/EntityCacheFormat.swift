import CacheCore

/// The LEGO client's `entity_cache(table_name, primary_key, data, created_at, expires_at)`:
/// `table_name` is the namespace, `data` JSON; times are seconds when the columns are
/// numeric, UTC text otherwise (GRDB's dates).
enum EntityCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        let name = "entity_cache"
        guard schema.has(name, ["table_name", "primary_key", "data", "created_at", "expires_at"]) else { return nil }
        let table = ForeignTable(
            name: name, key: "primary_key", value: "data", size: ForeignTable.bytes("primary_key", "data"),
            created: TimeColumn(column: "created_at", unit: schema.timeUnit(name, "created_at")),
            expires: TimeColumn(column: "expires_at", unit: schema.timeUnit(name, "expires_at")))
        return ForeignLayout(
            kind: .entityCache,
            grouping: ForeignLayout.Grouping(file: file, table: table, expression: "table_name", emptyName: "(none)"),
            files: [file])
    }
}
