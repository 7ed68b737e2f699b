extension Schema {
    /// Format v9: each `entry_tags` row also holds its entry's `namespace_id` and `key`, and
    /// `entry_tags_by_key (tag, namespace_id, key)` finds a tag's entries in one namespace under
    /// a key prefix as one index range, so a query by tag and prefix reads the entries it
    /// returns instead of walking every key under the prefix (see ``TagRange``).
    ///
    /// Triggers keep the two columns exact: an insert or a tag change writes them, and
    /// `entries_tags_move` follows an entry whose namespace (a partition move) or key (the
    /// format-6 renormalisation) changes. Untagged entries cost nothing; a tagged one costs the
    /// key's bytes once more and one index entry per tag. The migration fills the columns of
    /// the existing rows in its one transaction (one indexed lookup per tag row).
    static let tagKeys = """
        ALTER TABLE entry_tags ADD COLUMN namespace_id INTEGER;
        ALTER TABLE entry_tags ADD COLUMN key TEXT;
        UPDATE entry_tags SET (namespace_id, key) = (SELECT namespace_id, key FROM entries WHERE id = entry_id);
        CREATE INDEX entry_tags_by_key ON entry_tags (tag, namespace_id, key);

        DROP TRIGGER entries_tags_insert;
        DROP TRIGGER entries_tags_update;
        CREATE TRIGGER entries_tags_insert AFTER INSERT ON entries WHEN new.tags IS NOT NULL BEGIN
            INSERT OR IGNORE INTO entry_tags (tag, entry_id, namespace_id, key)
            SELECT value, new.id, new.namespace_id, new.key FROM json_each(new.tags);
        END;
        CREATE TRIGGER entries_tags_update AFTER UPDATE OF tags ON entries WHEN new.tags IS NOT old.tags BEGIN
            DELETE FROM entry_tags WHERE entry_id = old.id;
            INSERT OR IGNORE INTO entry_tags (tag, entry_id, namespace_id, key)
            SELECT value, new.id, new.namespace_id, new.key FROM json_each(new.tags) WHERE new.tags IS NOT NULL;
        END;
        CREATE TRIGGER entries_tags_move AFTER UPDATE OF namespace_id, key ON entries
        WHEN new.tags IS NOT NULL AND (new.namespace_id IS NOT old.namespace_id OR new.key IS NOT old.key) BEGIN
            UPDATE entry_tags SET namespace_id = new.namespace_id, key = new.key WHERE entry_id = new.id;
        END;
        """

    /// The format that introduces ``tagKeys``.
    static let tagKeysVersion = 9
}
