/// The SQL of expiry actions: the old times into `expiry_trash`, the new ones onto the
/// entries, and back on undo.
extension SQLiteConnection {
    /// Changes the expiry of the entries in `temp.doomed` (keeping their old times under
    /// `auditID` when `keepOld`); returns how many and their bytes.
    func changeExpiryOfDoomed(_ change: ExpiryChange, auditID: Int64, keepOld: Bool, now: Int64) throws -> (
        entries: Int, bytes: Int
    ) {
        let totals =
            try withStatement("SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE id IN temp.doomed") {
                try $0.firstRow { ($0.int(0), $0.int(1)) }
            } ?? (0, 0)
        if keepOld {
            try run(
                """
                INSERT OR IGNORE INTO expiry_trash (audit_id, entry_id, expires_at, stale_until)
                SELECT ?1, id, expires_at, stale_until FROM entries WHERE id IN temp.doomed
                """, auditID)
        }
        try withDynamicStatement(
            "UPDATE entries SET \(change.assignments) WHERE id IN temp.doomed AND ?1 IS NOT NULL AND ?2 IS NOT NULL"
        ) { statement in
            statement.bind(now, change.milliseconds)
            _ = try statement.run()
        }
        return totals
    }

    /// Puts back the old times of up to `limit` entries action `auditID` changed, unless an
    /// entry was written again after `start`; returns how many rows of the trash it took and
    /// how many entries it restored.
    func restoreExpiryBatch(auditID: Int64, start: Int64, limit: Int) throws -> (taken: Int, restored: Int) {
        let taken = try fillDoomed("SELECT entry_id FROM expiry_trash WHERE audit_id = ?1 LIMIT ?2", auditID, limit)
        let restored = try run(
            """
            UPDATE entries SET expires_at = t.expires_at, stale_until = t.stale_until
            FROM expiry_trash t
            WHERE t.audit_id = ?1 AND t.entry_id = entries.id AND entries.id IN temp.doomed AND entries.created_at <= ?2
            """, auditID, start)
        try run("DELETE FROM expiry_trash WHERE audit_id = ?1 AND entry_id IN temp.doomed", auditID)
        return (taken, restored)
    }

    /// Deletes up to `limit` kept times of actions run before `cutoff`; returns how many.
    func purgeExpiryTrash(before cutoff: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM expiry_trash WHERE (audit_id, entry_id) IN (
                SELECT t.audit_id, t.entry_id FROM expiry_trash t JOIN audit a ON a.id = t.audit_id
                WHERE a.at < ?1 LIMIT ?2)
            """, cutoff, limit)
    }
}

extension ExpiryChange {
    /// The new `expires_at` and `stale_until` as SQL on a row of `entries`, with `?1` the
    /// current time and `?2` the change's milliseconds.
    var assignments: String {
        switch self {
        case .expireNow:
            """
            stale_until = CASE WHEN expires_at IS NULL OR stale_until IS NULL OR stale_until < expires_at THEN ?1
                               ELSE ?1 + (stale_until - expires_at) END,
            expires_at = ?1
            """
        case .set(nil):
            "expires_at = NULL, stale_until = NULL"
        case .set:
            """
            stale_until = CASE WHEN expires_at IS NULL OR stale_until IS NULL THEN ?1 + ?2
                               ELSE ?1 + ?2 + (stale_until - expires_at) END,
            expires_at = ?1 + ?2
            """
        case .extend:
            "expires_at = expires_at + ?2, stale_until = stale_until + ?2"
        }
    }
}
