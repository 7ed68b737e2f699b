import Foundation

extension Admin {
    /// What importing `entries` into `namespace` would do now. Changes nothing. Throws
    /// ``InspectorError/noSuchNamespace(_:)`` when the file lacks the namespace.
    public func previewImport(_ entries: [ImportedEntry], into namespace: String) throws -> ImportImpact {
        let entries = Self.lastPerKey(entries)
        return try store.database.read { connection in
            guard let id = try connection.namespaceRow(name: namespace)?.id else {
                throw InspectorError.noSuchNamespace(namespace)
            }
            let held = try connection.heldKeys(namespaceID: id, keysJSON: Self.keysJSON(entries))
            return ImportImpact(
                new: entries.count - held.entries, replacing: held.entries, replacedBytes: held.bytes,
                bytes: entries.reduce(0) { $0 + $1.size })
        }
    }

    /// Writes `entries` into `namespace` as one audited action, in one transaction (all or
    /// nothing): the entries they replace go to the trash, as a purge's do, and
    /// ``restore(_:origin:)`` deletes the imported rows nothing wrote since and brings the
    /// replaced ones back. A key given twice takes its last entry. A `createdAt` not before
    /// now is stored as 1 ms before now (so the undo can tell imported rows from later writes).
    /// Running apps drop their memory copies of the keys. Throws
    /// ``InspectorError/noSuchNamespace(_:)`` when the file lacks the namespace.
    @discardableResult
    public func importEntries(_ entries: [ImportedEntry], into namespace: String, origin: ActionOrigin = .current)
        throws -> ActionOutcome
    {
        let entries = Self.lastPerKey(entries)
        let now = store.now()
        let keysJSON = try Self.keysJSON(entries)
        let selector = InvalidationSelector.keys(namespace: namespace, keys: entries.map(\.key))
        let outcome = try store.database.write { connection in
            try connection.writeTransaction { () -> ActionOutcome in
                guard let id = try connection.namespaceRow(name: namespace)?.id else {
                    throw InspectorError.noSuchNamespace(namespace)
                }
                let auditID = try connection.insertAudit(origin: origin, target: nil, restores: nil, now: now)
                try connection.fillDoomed(namespaceID: id, keysJSON: keysJSON)
                var replaced = (entries: 0, bytes: 0)
                for held in try connection.doomedNamespaces() {
                    let partition = try connection.insertTrashPartition(name: held.name, auditID: auditID, now: now)
                    try connection.moveDoomed(from: held.id, to: partition, totals: (held.entries, held.bytes))
                    replaced = (held.entries, held.bytes)
                }
                let first = try connection.lastEntryID() + 1
                for entry in entries {
                    let write = EntryWrite(
                        key: entry.key, value: entry.value,
                        attributes: WriteAttributes(expiresAt: entry.expiresAt, staleUntil: entry.staleUntil, tags: entry.tags),
                        writtenAt: min(entry.createdAt, now - 1))
                    try connection.upsertEntry(namespaceID: id, write, version: entry.version, now: now)
                }
                let last = try connection.lastEntryID()
                let record = ImportRecord(
                    namespace: namespace, entries: entries.count, replaced: replaced.entries,
                    rowIDs: entries.isEmpty ? nil : first...last)
                let bytes = entries.reduce(0) { $0 + $1.size }
                try connection.setAuditTarget(
                    auditID, String(decoding: try JSONEncoder().encode(AdminTarget.importEntries(record: record)), as: UTF8.self))
                try connection.finishAudit(auditID, entries: entries.count, bytes: bytes, now: now)
                try connection.appendInvalidation(selector, removed: replaced.entries, origin: store.origin, now: now)
                return ActionOutcome(
                    auditID: auditID, removed: entries.count, bytes: bytes, isUndoable: true, isCancelled: false,
                    wasDiskFull: false, notRemoved: 0, isAudited: true)
            }
        }
        for runtime in store.allRuntimes { runtime.drop(selector) }
        return outcome
    }

    /// Deletes the rows import `record` (run at `at`) wrote that nothing wrote since; returns
    /// how many (part of its undo, before the replaced entries come back).
    func deleteImported(_ record: ImportRecord, at: Int64) throws -> Int {
        guard let rowIDs = record.rowIDs else { return 0 }
        let selector = InvalidationSelector.namespace(record.namespace)
        let deleted = try store.database.write { connection in
            try connection.writeTransaction {
                try connection.fillDoomed(imported: rowIDs, namespace: record.namespace, importedAt: at)
                let deleted = try connection.deleteDoomed().entries
                try connection.appendInvalidation(selector, removed: deleted, origin: store.origin, now: store.now())
                return deleted
            }
        }
        for runtime in store.allRuntimes { runtime.drop(selector) }
        return deleted
    }

    /// `entries` with only the last of each key, in their order.
    private static func lastPerKey(_ entries: [ImportedEntry]) -> [ImportedEntry] {
        var last: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { last[entry.key] = index }
        return entries.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
    }

    private static func keysJSON(_ entries: [ImportedEntry]) throws -> String {
        String(decoding: try JSONEncoder().encode(entries.map(\.key)), as: UTF8.self)
    }
}
