import CacheCore

/// requests-cache's SQLite backend: `responses` and `redirects`, each `(key, value,
/// expires)` with `expires` in seconds (older files lack the column: no expiry). A redirect's
/// value is the key of the response it points at; without that response it is an orphan.
enum RequestsCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        guard schema.has("responses", ["key", "value"]), schema.has("redirects", ["key", "value"]) else { return nil }
        func table(_ name: String) -> ForeignTable {
            ForeignTable(
                name: name, key: "key", value: "value", size: ForeignTable.bytes("key", "value"),
                expires: schema.has(name, ["expires"]) ? TimeColumn(column: "expires", unit: .seconds) : nil)
        }
        var responses = table("responses")
        responses.dependents = [ForeignDependent(table: "redirects", column: "value")]
        return ForeignLayout(
            kind: .requestsCache,
            sections: [
                ForeignSection(namespace: "responses", file: file, table: responses),
                ForeignSection(namespace: "redirects", file: file, table: table("redirects")),
            ],
            files: [file])
    }
}
