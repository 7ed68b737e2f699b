import Foundation

/// A `namespaces` row.
struct NamespaceRecordRow {
    let id: Int64
    let name: String
    let version: String
    let policyJSON: String
    let entryCount: Int
    let bytes: Int64
    let generation: Int
    let createdAt: Int64
    let updatedAt: Int64
}

/// A `namespaces` row as salvage copies it (its counters are counted again afterwards).
struct SalvagedNamespace {
    let id: Int64
    let name: String
    let version: String
    let policy: String
    let generation: Int64
    let createdAt: Int64
    let updatedAt: Int64
}

/// The file's format and page figures with the namespaces' totals, read in one statement.
struct StoreFigures {
    var formatVersion = 0
    var pageSize = 0
    var pageCount = 0
    var freelistCount = 0
    var namespaceCount = 0
    var entryCount = 0
    var payloadBytes = 0
}

/// The SQL of the `namespaces` table's live rows (creating, partitioning and restoring them
/// is in PartitionSQL.swift).
extension SQLiteConnection {
    /// The live row of namespace `name`, if any.
    func namespaceRow(name: String) throws -> (id: Int64, version: String, policyJSON: String)? {
        try withStatement("SELECT id, version, policy FROM namespaces WHERE name = ?1") { statement in
            statement.bind(name)
            return try statement.firstRow { ($0.int64(0), $0.text(1), $0.text(2)) }
        }
    }

    /// The id and stored-row counter of namespace `name`.
    func inspectedNamespace(named name: String) throws -> (id: Int64, entries: Int)? {
        try withStatement("SELECT id, entry_count FROM namespaces WHERE name = ?1") { statement in
            statement.bind(name)
            return try statement.firstRow { ($0.int64(0), $0.int(1)) }
        }
    }

    /// The `namespaces` rows, by name; only `name`'s when given.
    func namespaceRecords(named name: String?) throws -> [NamespaceRecordRow] {
        try withStatement(
            """
            SELECT id, name, version, policy, entry_count, total_bytes, generation, created_at, updated_at
            FROM namespaces WHERE ?1 IS NULL OR name = ?1 ORDER BY name
            """
        ) { statement in
            statement.bind(name)
            return try statement.rows { row in
                NamespaceRecordRow(
                    id: row.int64(0), name: row.text(1), version: row.text(2), policyJSON: row.text(3),
                    entryCount: row.int(4), bytes: row.int64(5), generation: row.int(6), createdAt: row.int64(7),
                    updatedAt: row.int64(8))
            }
        }
    }

    /// The live namespaces' ids (partitions are not namespaces: see ``Schema/partitions``).
    func namespaceIDs() throws -> [Int64] {
        try withStatement("SELECT id FROM namespaces ORDER BY id") { try $0.rows { $0.int64(0) } }
    }

    /// The namespaces' ids and names.
    func namespaceNames() throws -> [Int64: String] {
        let pairs = try withStatement("SELECT id, name FROM namespaces") { try $0.rows { ($0.int64(0), $0.text(1)) } }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// Every namespace's id and recorded policy JSON.
    func namespacePolicies() throws -> [(id: Int64, policyJSON: String)] {
        try withStatement("SELECT id, policy FROM namespaces ORDER BY id") { statement in
            try statement.rows { ($0.int64(0), $0.text(1)) }
        }
    }

    /// The namespace's entry and byte counters (kept exact by triggers).
    func namespaceTotals(namespaceID: Int64) throws -> (entries: Int, bytes: Int) {
        try withStatement("SELECT entry_count, total_bytes FROM namespaces WHERE id = ?1") { statement in
            statement.bind(namespaceID)
            return try statement.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0)
        }
    }

    /// The entry and byte counters of every namespace together.
    func storeTotals() throws -> (entries: Int, bytes: Int) {
        try withStatement("SELECT coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0) FROM namespaces") {
            try $0.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0)
        }
    }

    /// The bytes of every stored key and value (the namespaces' counters, kept by triggers).
    func payloadBytes() throws -> Int {
        try storeTotals().bytes
    }

    /// The file's format and page figures and the namespaces' totals, in one statement.
    func storeFigures() throws -> StoreFigures {
        try withStatement(
            """
            SELECT (SELECT user_version FROM pragma_user_version), (SELECT page_size FROM pragma_page_size),
                   (SELECT page_count FROM pragma_page_count),
                   (SELECT freelist_count FROM pragma_freelist_count),
                   count(*), coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0)
            FROM namespaces
            """
        ) { statement in
            try statement.firstRow { row in
                StoreFigures(
                    formatVersion: row.int(0), pageSize: row.int(1), pageCount: row.int(2), freelistCount: row.int(3),
                    namespaceCount: row.int(4), entryCount: row.int(5), payloadBytes: row.int(6))
            }
        } ?? StoreFigures()
    }

    /// Records namespace `id`'s new policy (its version unchanged).
    func updateNamespacePolicy(id: Int64, policyJSON: String, now: Int64) throws {
        try run("UPDATE namespaces SET policy = ?2, updated_at = ?3 WHERE id = ?1", id, policyJSON, now)
    }

    /// The namespace rows that can be read, up to the first damaged page.
    func readableNamespaces() -> [SalvagedNamespace] {
        readableRows("SELECT id, name, version, policy, generation, created_at, updated_at FROM namespaces") { row in
            SalvagedNamespace(
                id: row.int64(0), name: row.text(1), version: row.text(2), policy: row.text(3),
                generation: row.int64(4), createdAt: row.int64(5), updatedAt: row.int64(6))
        }
    }

    /// Inserts a namespace row read by ``readableNamespaces()`` (with zero counters).
    func insertSalvagedNamespace(_ namespace: SalvagedNamespace) throws {
        try run(
            """
            INSERT INTO namespaces (id, name, version, policy, generation, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """,
            namespace.id, namespace.name, namespace.version, namespace.policy, namespace.generation,
            namespace.createdAt, namespace.updatedAt)
    }

    /// Sets every namespace's counters from the entries it holds.
    func recountNamespaces() throws {
        try execute(
            """
            UPDATE namespaces SET
                entry_count = (SELECT count(*) FROM entries WHERE namespace_id = namespaces.id),
                total_bytes = (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = namespaces.id);
            """)
    }
}
