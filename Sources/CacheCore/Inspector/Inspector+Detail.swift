extension Inspector {
    /// Values up to this size are tried as JSON; larger ones are hex-dumped.
    package static let jsonParseLimit = 1 << 20

    /// The entry with row id `id` (from ``EntryRow/id``), or `nil` when it no longer exists.
    /// Reads at most 1 MiB of the value (or `maxBytes` for a hex dump).
    public func entry(id: Int64, options: EntryDetailOptions = EntryDetailOptions()) throws -> EntryDetail? {
        let now = store.now()
        let maxBytes = min(max(options.maxBytes, 16), 16 << 20)
        let fetched = options.format == .automatic ? max(maxBytes, Self.jsonParseLimit) : maxBytes
        let hasSortValues = store.database.hasSortValues
        let found = try store.database.read { connection in
            try connection.readTransaction {
                try connection.entryRow(id: id, previewBytes: fetched, namespaces: try connection.namespaceNames()).map {
                    ($0, hasSortValues ? try connection.sortValue(ofEntry: id) : nil)
                }
            }
        }
        return found.map { row, sortValue in
            var detail = Self.detail(of: row, now: now, format: options.format, maxBytes: maxBytes)
            detail.sortValue = sortValue
            return detail
        }
    }

    /// The entry stored under the canonical `key` in `namespace`, or `nil` when there is none.
    /// A key that is not valid UTF-8 is found by the escaped text ``EntryRow/key`` shows for it;
    /// any other key in either Unicode normalization form (see ``CanonicalKey/normalized(_:)``).
    public func entry(namespace: String, key: String, options: EntryDetailOptions = EntryDetailOptions()) throws
        -> EntryDetail?
    {
        let id = try store.database.read { connection in
            try connection.entryID(namespace: namespace, key: CanonicalKey.normalized(key))
                ?? PrintableKey.bytes(key).flatMap { try connection.entryID(namespace: namespace, keyBytes: $0) }
        }
        return try id.flatMap { try entry(id: $0, options: options) }
    }

    /// The detail of `row`, whose preview holds the bytes fetched (the whole value, or its start).
    package static func detail(of row: EntryRow, now: Int64, format: EntryDetailOptions.Format, maxBytes: Int)
        -> EntryDetail
    {
        let bytes = [UInt8](row.preview)
        var entry = row
        entry.preview = row.preview.prefix(64)
        var value: ValueRendering?
        if format == .automatic, bytes.count == row.valueBytes,
            let json = JSONPrettyPrinter.prettyPrinted(bytes, limit: maxBytes)
        {
            value = .json(json.text, isTruncated: json.isTruncated)
        }
        let dumped = Array(bytes.prefix(maxBytes))
        return EntryDetail(
            entry: entry, now: now, isExpired: row.isExpired(at: now),
            value: value ?? .hexDump(HexDumpLine.lines(dumped), isTruncated: dumped.count < row.valueBytes))
    }
}
