extension Schema {
    /// Format v7: an app-given sort value per entry (``Cache/set(_:for:expiration:tags:sortValue:)``),
    /// which queries order by and ``NamespacePolicy/keepingNewest(_:by:)`` keeps the highest of.
    ///
    /// The column is nullable and its index partial (`WHERE sort_value IS NOT NULL`), so an
    /// entry without a sort value costs nothing extra: no index entry, and the NULL column at
    /// the end of the record takes no bytes. Adding the column rewrites no row (SQLite reads
    /// a missing trailing column as NULL); building the index reads the table once and writes
    /// an empty index, in the migration's one transaction.
    static let sortValues = """
        ALTER TABLE entries ADD COLUMN sort_value INTEGER;
        CREATE INDEX entries_by_sort_value ON entries (namespace_id, sort_value) WHERE sort_value IS NOT NULL;
        """

    /// The condition of each partial index, by name: a query reads such an index only under it
    /// (fixed text, never read from the file).
    static let partialIndexConditions = ["entries_by_sort_value": "sort_value IS NOT NULL"]

    /// The format that introduces ``sortValues``.
    static let sortValuesVersion = 7
}
