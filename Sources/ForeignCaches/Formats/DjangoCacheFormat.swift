import CacheCore

/// Django's database cache: any table with `cache_key`, `value` (base64 of a pickle) and
/// `expires` (UTC text). Keys are `prefix:version:key`: the prefix is the namespace.
enum DjangoCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        guard let name = schema.tables(with: ["cache_key", "value", "expires"]).first else { return nil }
        let afterPrefix = "substr(cache_key, instr(cache_key, ':') + 1)"
        let table = ForeignTable(
            name: ForeignTable.quoted(name), key: "cache_key", value: "value",
            size: ForeignTable.bytes("cache_key", "value"),
            expires: TimeColumn(column: "expires", unit: schema.timeUnit(name, "expires")),
            version: "CASE WHEN instr(\(afterPrefix), ':') > 0 THEN substr(\(afterPrefix), 1, instr(\(afterPrefix), ':') - 1) END")
        return ForeignLayout(
            kind: .django,
            grouping: ForeignLayout.Grouping(
                file: file, table: table, expression: "substr(cache_key, 1, max(instr(cache_key, ':') - 1, 0))",
                emptyName: "(no prefix)"),
            files: [file])
    }
}
