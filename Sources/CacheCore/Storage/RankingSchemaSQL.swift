extension Schema {
    /// Format v5: `entries_by_access` also holds `created_at` and `hits`, so the console ranks
    /// a namespace by creation or hits from that index alone, as it ranks by size from
    /// `entries_by_expiry` (which holds `size`): a scan of small index rows instead of the
    /// table with its values (on a 1 GB file, 70 ms instead of 300–430 ms for a first page).
    ///
    /// Writes pay nothing in pages: a set rewrites `accessed_at` and `created_at` together and
    /// a flushed read rewrites `accessed_at` and `hits` together, so the index entry that moves
    /// is the one that moved before; it is 8–10 bytes longer. Only the schema changes, so a
    /// read-only store reads a format-4 file as it is (see ``oldestReadableVersion``).
    static let rankingColumns = """
        DROP INDEX entries_by_access;
        CREATE INDEX entries_by_access ON entries (namespace_id, accessed_at, created_at, hits);
        """

    /// The oldest format a read-only store reads without migrating it: format 4 has every table
    /// and column of format 5, which adds index columns only. Format 3 keeps removed entries in
    /// a table the current code does not read, so it must be opened read-write once.
    static let oldestReadableVersion = 4
}
