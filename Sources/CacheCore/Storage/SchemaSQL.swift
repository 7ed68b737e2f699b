/// The cache file format: its identity, its version and the migrations that build it.
///
/// A file is a CacheDeck cache when `PRAGMA application_id` is ``applicationID``. Its format
/// version is `PRAGMA user_version`; opening migrates older files forward and refuses newer
/// ones without touching them.
enum Schema {
    /// `'CDck'` as a big-endian 32-bit integer.
    static let applicationID: Int64 = 1_128_555_371

    /// The format this build reads and writes.
    static var currentVersion: Int { migrations.count }

    /// `migrations[n]` takes a file from format `n` to `n + 1`.
    static let migrations: [String] = [
        version1, version2, memoryTierRegistry, partitions, rankingColumns, NormalizedKeys.schema, sortValues,
        withoutAccessIndex, tagKeys,
    ]

    /// Format v2: the invalidation journal, telemetry and attached clients, the audit log and
    /// the trash.
    static let version2 = invalidationJournal + telemetryTables + adminTables

    /// Format v1: namespaces, entries, tags, and the triggers that keep counters and tags exact.
    ///
    /// Times are integer milliseconds since the epoch. `entries.created_at` is when the current
    /// value was written; `id` grows with first insertion (an overwrite keeps its row), which is
    /// the order "keep the newest N" evicts in. Every index is one more b-tree each write and
    /// sweep touches, so there are only the three that reads, sweeps and LRU eviction needed
    /// then (format 8 drops `entries_by_access`, see ``withoutAccessIndex``).
    static let version1 = """
        CREATE TABLE namespaces (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            version TEXT NOT NULL DEFAULT '',
            policy TEXT NOT NULL DEFAULT '{}',
            entry_count INTEGER NOT NULL DEFAULT 0,
            total_bytes INTEGER NOT NULL DEFAULT 0,
            generation INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );

        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            namespace_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            value BLOB NOT NULL,
            size INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            stale_until INTEGER,
            accessed_at INTEGER NOT NULL,
            hits INTEGER NOT NULL DEFAULT 0,
            version TEXT NOT NULL DEFAULT '',
            tags TEXT,
            UNIQUE (namespace_id, key)
        );
        CREATE INDEX entries_by_expiry ON entries (namespace_id, expires_at, stale_until);
        CREATE INDEX entries_by_access ON entries (namespace_id, accessed_at);

        CREATE TABLE entry_tags (
            tag TEXT NOT NULL,
            entry_id INTEGER NOT NULL,
            PRIMARY KEY (tag, entry_id)
        ) WITHOUT ROWID;
        CREATE INDEX entry_tags_by_entry ON entry_tags (entry_id);

        CREATE TRIGGER entries_count_insert AFTER INSERT ON entries BEGIN
            UPDATE namespaces SET entry_count = entry_count + 1, total_bytes = total_bytes + new.size
            WHERE id = new.namespace_id;
        END;
        CREATE TRIGGER entries_count_delete AFTER DELETE ON entries BEGIN
            UPDATE namespaces SET entry_count = entry_count - 1, total_bytes = total_bytes - old.size
            WHERE id = old.namespace_id;
        END;
        CREATE TRIGGER entries_count_resize AFTER UPDATE OF size ON entries WHEN new.size != old.size BEGIN
            UPDATE namespaces SET total_bytes = total_bytes + new.size - old.size WHERE id = new.namespace_id;
        END;
        CREATE TRIGGER entries_tags_insert AFTER INSERT ON entries WHEN new.tags IS NOT NULL BEGIN
            INSERT OR IGNORE INTO entry_tags (tag, entry_id) SELECT value, new.id FROM json_each(new.tags);
        END;
        CREATE TRIGGER entries_tags_delete AFTER DELETE ON entries WHEN old.tags IS NOT NULL BEGIN
            DELETE FROM entry_tags WHERE entry_id = old.id;
        END;
        CREATE TRIGGER entries_tags_update AFTER UPDATE OF tags ON entries WHEN new.tags IS NOT old.tags BEGIN
            DELETE FROM entry_tags WHERE entry_id = old.id;
            INSERT OR IGNORE INTO entry_tags (tag, entry_id)
            SELECT value, new.id FROM json_each(new.tags) WHERE new.tags IS NOT NULL;
        END;
        """
}
