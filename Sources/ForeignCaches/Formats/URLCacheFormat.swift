import CacheCore

/// Apple's URL loading cache, `Cache.db`: `cfurl_cache_response` (the request URL and a
/// `time_stamp` as UTC text), bodies in `cfurl_cache_receiver_data`, inline or, when
/// `isDataOnFS`, in `fsCachedData/<name>` beside the file. No expiry column: ages.
enum URLCacheFormat {
    static func layout(_ schema: ForeignSchema, file: ForeignFile) -> ForeignLayout? {
        guard schema.has("cfurl_cache_response", ["entry_id", "request_key", "time_stamp"]),
            schema.has("cfurl_cache_receiver_data", ["entry_id", "isdataonfs", "receiver_data"])
        else { return nil }
        let body = "FROM cfurl_cache_receiver_data AS d WHERE d.entry_ID = cfurl_cache_response.entry_ID"
        let table = ForeignTable(
            name: "cfurl_cache_response", rowID: "entry_ID", key: "request_key",
            value: "(SELECT receiver_data \(body) AND d.isDataOnFS = 0)",
            size: ForeignTable.bytes("request_key")
                + " + ifnull((SELECT \(ForeignTable.bytes("receiver_data")) \(body) AND d.isDataOnFS = 0), 0)",
            sideFile: "(SELECT 'fsCachedData/' || CAST(receiver_data AS TEXT) \(body) AND d.isDataOnFS != 0)",
            sizeCountsSideFile: false,
            created: TimeColumn(column: "time_stamp", unit: .utcText), allowsActions: false)
        return ForeignLayout(
            kind: .urlCache, sections: [ForeignSection(namespace: "responses", file: file, table: table)],
            files: [file])
    }
}
