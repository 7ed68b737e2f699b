extension SQLiteConnection {
    /// The smallest tag after `tag` (`""`: the first), if any: one step of the `entry_tags`
    /// primary key, so listing the distinct tags costs one lookup per tag, not a scan of the
    /// tagged entries.
    func tag(after tag: String) throws -> String? {
        try withStatement("SELECT tag FROM entry_tags WHERE tag > ?1 ORDER BY tag LIMIT 1") { statement in
            statement.bind(tag)
            return try statement.firstRow { $0.text(0) }
        }
    }
}
