import CacheCore
import Foundation

/// A cache file (or folder) another library wrote, read without changing it: recognised from
/// its schema, listed a keyset page at a time, its values shown without being deserialised.
package struct ForeignCache: Sendable {
    /// The file or folder opened.
    package let path: String
    let layout: ForeignLayout

    /// The format.
    package var kind: ForeignFormatKind { layout.kind }

    /// What the format records.
    package var facts: ForeignFacts { layout.facts }

    /// Recognises the cache at `path`: a SQLite file of a known format, a python-diskcache
    /// folder (`cache.db`) or FanoutCache folder (`000/cache.db`, …). `nil` when it is none
    /// of them (a CacheDeck file included); throws when it cannot be read.
    package static func recognise(path: String) throws -> ForeignCache? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue {
            let single = (path as NSString).appendingPathComponent("cache.db")
            if FileManager.default.fileExists(atPath: single) { return try recognise(path: single) }
            return try DiskCacheFormat.layout(folder: path).map { ForeignCache(path: path, layout: $0) }
        }
        let file = ForeignFile(path: path)
        guard file.isSQLite else { return nil }
        let schema: ForeignSchema
        do {
            schema = try ForeignSchema.read(file)
        } catch let error as SQLiteError {
            throw ForeignCacheError("cannot read \(path): \(error.message)")
        }
        if let table = try DiskCacheFormat.table(schema, file: file) {
            let layout = ForeignLayout(
                kind: .diskCache, sections: [ForeignSection(namespace: "cache", file: file, table: table)],
                files: [file])
            return ForeignCache(path: path, layout: layout)
        }
        let layouts: [(ForeignSchema, ForeignFile) -> ForeignLayout?] = [
            RequestsCacheFormat.layout, DjangoCacheFormat.layout, SolidCacheFormat.layout,
            LaravelCacheFormat.layout, URLCacheFormat.layout, EntityCacheFormat.layout,
        ]
        for layout in layouts {
            if let found = layout(schema, file) { return ForeignCache(path: path, layout: found) }
        }
        return nil
    }

    /// Opens the cache at `path`, or says why it is not one CacheDeck knows.
    package static func open(path: String) throws -> ForeignCache {
        guard let cache = try recognise(path: path) else {
            throw ForeignCacheError("\(path) is not a cache format CacheDeck knows")
        }
        return cache
    }

    /// The namespaces' names, in order.
    package func namespaceNames() throws -> [String] {
        try mapped { try layout.namespaces().map(\.namespace) }
    }

    /// Sizes, totals and every namespace at `now` (ms); bytes only when `countingBytes` (they
    /// take a scan of every row, where counts use indexes).
    package func overview(now: Int64, countingBytes: Bool = true) throws -> ForeignOverview {
        try mapped {
            let namespaces = try layout.namespaces().map { try $0.summary(now: now, countingBytes: countingBytes) }
            let sizes = layout.files.map(\.sizes)
            let facts = layout.facts
            return ForeignOverview(
                path: path, format: kind, facts: facts, fileBytes: sizes.reduce(0) { $0 + $1.file },
                walBytes: sizes.reduce(0) { $0 + $1.wal }, entries: namespaces.reduce(0) { $0 + $1.entries },
                bytes: countingBytes ? namespaces.reduce(0) { $0 &+ ($1.bytes ?? 0) } : nil,
                expired: facts.expiry ? namespaces.reduce(0) { $0 + ($1.expired ?? 0) } : nil,
                namespaces: namespaces, now: now)
        }
    }

    /// One page of a namespace's entries.
    package func entries(_ query: ForeignQuery, now: Int64) throws -> ForeignPage {
        try mapped { try section(query.namespace).page(query, now: now) }
    }

    /// One entry in full (`nil` when it no longer exists); its value hex-dumped if `hex`.
    package func entry(_ id: ForeignEntryID, hex: Bool = false) throws -> ForeignDetail? {
        try mapped { try section(id.namespace).detail(row: id.row, hex: hex) }
    }

    /// The expiry timeline (or ages, for formats without expiry) of `namespace`, or of all.
    package func timeline(namespace: String?, now: Int64) throws -> ForeignTimeline {
        try mapped {
            let sections = try namespace.map { [try section($0)] } ?? layout.namespaces()
            return try ForeignTimelineSQL.timeline(sections, namespace: namespace, facts: facts, now: now)
        }
    }

    /// Sizes and modification times of the files, which change whenever anything is committed.
    package func changeStamp() -> [Int64] {
        layout.files.flatMap { file in
            [file.path, file.path + "-wal"].flatMap { path -> [Int64] in
                var info = stat()
                guard stat(path, &info) == 0 else { return [-1] }
                return [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
            }
        }
    }

    func section(_ namespace: String) throws -> ForeignSection {
        guard let section = layout.section(named: namespace) else {
            throw ForeignCacheError("no namespace '\(namespace)' in this \(kind.rawValue) cache")
        }
        return section
    }

    /// Runs `body`, turning SQLite's errors into one line naming the file.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw ForeignCacheError("cannot read \(path): \(error.message)")
        }
    }
}

extension ForeignCache {
    /// The entry of `namespace` whose key reads `key` (as listings print it), or `#ROW`.
    package func find(namespace: String, key: String) throws -> ForeignEntryID? {
        if key.hasPrefix("#"), let row = Int64(key.dropFirst()) { return ForeignEntryID(namespace: namespace, row: row) }
        return try mapped {
            try section(namespace).row(forKey: key).map { ForeignEntryID(namespace: namespace, row: $0) }
        }
    }
}
