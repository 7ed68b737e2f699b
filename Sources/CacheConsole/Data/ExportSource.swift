import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// What ``EntryExporter`` reads entries from: pages of a namespace's entries a filter
/// matches, one entry by key, and an entry's value. The file ``CacheCore/Inspector`` and
/// the ``CacheCore/RedisStoreInspector`` are both sources.
package protocol ExportSource {
    /// Where the next page starts.
    associatedtype Cursor

    /// The rows of the page of `namespace` after `cursor` (`nil`: the first) that `filter`
    /// matches, at most `limit`, and where the next page starts (`nil`: the end).
    func exportPage(namespace: String, filter: EntryFilter, limit: Int, after cursor: Cursor?) throws
        -> (rows: [EntryRow], next: Cursor?)

    /// The entry under the canonical `key` in `namespace`, or `nil` when there is none.
    func exportRow(namespace: String, key: String) throws -> EntryRow?

    /// The entry's value as a hex dump (``EntryDetail/value``), read whole (up to 16 MiB).
    func exportHexDump(of row: EntryRow) throws -> ValueRendering?
}

extension ExportSource {
    /// The whole value under the canonical `key` in `namespace` (up to 16 MiB); `nil` when
    /// there is no such entry.
    package func wholeValue(namespace: String, key: String) throws -> Data? {
        try exportRow(namespace: namespace, key: key).map { try EntryExporter.value(of: $0, from: self) }
    }
}

extension Inspector: ExportSource {
    package func exportPage(namespace: String, filter: EntryFilter, limit: Int, after cursor: EntryCursor?) throws
        -> (rows: [EntryRow], next: EntryCursor?)
    {
        let page = try entries(
            EntryQuery(namespace: namespace, filter: filter, limit: limit, after: cursor, previewBytes: 0))
        return (page.rows, page.next)
    }

    package func exportRow(namespace: String, key: String) throws -> EntryRow? {
        try entry(namespace: namespace, key: key)?.entry
    }

    package func exportHexDump(of row: EntryRow) throws -> ValueRendering? {
        try entry(id: row.id, options: EntryExporter.hexDumpOptions)?.value
    }
}

extension RedisStoreInspector: ExportSource {
    /// A page in `SCAN` order; a page may hold fewer rows than `limit` (bounded `SCAN`s).
    package func exportPage(namespace: String, filter: EntryFilter, limit: Int, after cursor: RedisEntryCursor?)
        throws -> (rows: [EntryRow], next: RedisEntryCursor?)
    {
        let page = try entries(RedisEntryQuery(namespace: namespace, filter: filter, limit: limit, after: cursor))
        return (page.rows, page.next)
    }

    package func exportRow(namespace: String, key: String) throws -> EntryRow? {
        try entry(namespace: namespace, key: key)?.entry
    }

    package func exportHexDump(of row: EntryRow) throws -> ValueRendering? {
        try entry(namespace: row.namespace, key: row.key, options: EntryExporter.hexDumpOptions)?.value
    }
}
