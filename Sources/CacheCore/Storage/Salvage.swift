import Foundation

/// A cache file with damaged pages: finding the damage cheaply, and copying every entry that
/// can still be read into a fresh file.
///
/// SQLite reads a file whose header is intact even when a b-tree's root page is garbage, so
/// the damage only shows when a statement touches that table or index — every open or write
/// then fails with "database disk image is malformed". Opening probes each root page (one
/// page read per table and index, whatever the file's size); a store that may quarantine
/// then salvages: the readable entries go into a fresh file, the damaged one is moved aside.
enum Salvage {
    /// The tables and indexes whose root page SQLite cannot read, by name.
    static func damagedRoots(_ connection: SQLiteConnection) throws -> [String] {
        var damaged: [String] = []
        for object in try connection.schemaObjects() {
            var probes: [String?] = [object.type == "index" ? object.name : nil]
            if object.type == "table" {
                // A WITHOUT ROWID table is its primary key's b-tree, which NOT INDEXED does not
                // force (a covering index may answer instead): name it.
                probes += try connection.primaryKeyIndexes(of: object.table)
            }
            do {
                for index in probes { try connection.probe(table: object.table, index: index) }
            } catch let error as SQLiteError where error.isCorrupt {
                damaged.append(object.name)
            }
        }
        return damaged
    }

    /// Copies the namespaces and entries that can be read from `source` into `target` (a new
    /// file in the current format); returns how many entries it copied.
    ///
    /// Entry ids are gathered from the table and from each of its indexes (each read until
    /// it meets damage), then every entry is read by id, so one damaged page loses only the
    /// entries stored on it. Entries whose namespace row cannot be read are lost: their
    /// namespace's name is.
    static func copy(from source: SQLiteConnection, into target: SQLiteConnection) throws -> Int {
        let namespaces = source.readableNamespaces()
        var ids = Set<Int64>()
        // `entries_by_access` exists in files of format 1–7 only (a missing index reads nothing).
        for index in [nil, "entries_by_expiry", "entries_by_access"] {
            ids.formUnion(source.readableEntryIDs(indexedBy: index))
        }
        let known = Set(namespaces.map(\.id))
        let withSortValues = ((try? source.formatVersion()) ?? 0) >= Schema.sortValuesVersion
        var copied = 0
        try target.writeTransaction {
            for namespace in namespaces { try target.insertSalvagedNamespace(namespace) }
            for id in ids.sorted() {
                guard
                    try copyEntry(id, from: source, into: target, namespaces: known, withSortValue: withSortValues)
                else { continue }
                copied += 1
            }
            // The counters and the tag index, derived from what was copied (whether or not
            // the format's triggers keep them as rows arrive).
            try target.recountNamespaces()
            try target.rebuildTagIndex()
        }
        return copied
    }

    /// Copies entry `id` if it can be read and its namespace is known; whether it did.
    private static func copyEntry(
        _ id: Int64, from source: SQLiteConnection, into target: SQLiteConnection, namespaces: Set<Int64>,
        withSortValue: Bool
    ) throws -> Bool {
        let entry: SalvagedEntry?
        do {
            entry = try source.salvagedEntry(id: id, withSortValue: withSortValue)
        } catch let error as SQLiteError where error.isCorrupt {
            return false
        }
        guard let entry, let namespace = entry.namespaceID, namespaces.contains(namespace) else { return false }
        try target.insertSalvagedEntry(entry, id: id)
        return true
    }
}
