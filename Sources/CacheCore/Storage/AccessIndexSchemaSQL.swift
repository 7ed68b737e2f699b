extension Schema {
    /// Format v5 widened `entries_by_access` to `(namespace_id, accessed_at, created_at, hits)`
    /// so the console could rank by creation or hits from the index alone. Format 8 drops that
    /// index, so migrating through this step builds nothing: it is kept as a step so that
    /// version numbers stay what they were.
    static let rankingColumns = "-- format 5: widened entries_by_access, which format 8 drops"

    /// Format 8: no access index. `entries_by_access` was one more b-tree every set rewrote
    /// (a set moves `accessed_at`), for least-recently-used eviction, rankings by last access,
    /// creation or hits, and other processes' coherence checks. Instead:
    /// - eviction samples entries (``SampledEviction``), and rankings by last access and hits
    ///   scan the namespace; access times and hits stay per entry, written by the batched read
    ///   flush;
    /// - `entries_by_expiry` also holds `created_at`, so creation order ranks from that index
    ///   alone. A set rewrites that index entry anyway (it sets the expiry, stale and size
    ///   columns), so it costs sets a few bytes, not a b-tree;
    /// - sets are journaled for processes holding memory copies (``entryWrites``), only while
    ///   one is registered.
    ///
    /// It is one transaction with the migration, so a process killed during it leaves the
    /// file at format 7, which the next open migrates again.
    static let withoutAccessIndex = """
        DROP INDEX IF EXISTS entries_by_access;
        DROP INDEX entries_by_expiry;
        CREATE INDEX entries_by_expiry ON entries (namespace_id, expires_at, stale_until, size, created_at);
        """ + entryWrites

    /// The oldest format a read-only store reads without migrating it: format 4 has every table
    /// and column of format 8 but the sort value and the write journal, which only writers and processes holding
    /// memory copies use; its other changes are indexes and the spelling of keys. Format 3
    /// keeps removed entries in a table the current code does not read, so it must be opened
    /// read-write once.
    static let oldestReadableVersion = 4
}
