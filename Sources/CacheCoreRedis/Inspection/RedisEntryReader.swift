import CacheCore
import Foundation

/// Reads entry hashes (`<prefix>e:<ns>:<generation>:<key>`) into `EntryRow`s, a batch of keys
/// in one pipeline. Redis records no reads: a row's `EntryRow/hits` is 0 and its
/// `EntryRow/lastAccessAt` the write; `EntryRow/id` is 0 (entries are found by key).
enum RedisEntryReader {
    /// The parts of an entry key after the entry prefix: the escaped namespace, the
    /// generation and the canonical key's bytes; `nil` for any other key.
    static func parse(_ name: Data, entryPrefix: Data) -> (escapedNamespace: Data, generation: Int64, key: Data)? {
        guard name.starts(with: entryPrefix) else { return nil }
        let rest = name.dropFirst(entryPrefix.count)
        guard let nameEnd = rest.firstIndex(of: 0x3A) else { return nil }
        let afterName = rest[rest.index(after: nameEnd)...]
        guard let generationEnd = afterName.firstIndex(of: 0x3A),
            let generation = Int64(String(decoding: afterName[..<generationEnd], as: UTF8.self))
        else { return nil }
        return (Data(rest[..<nameEnd]), generation, Data(afterName[afterName.index(after: generationEnd)...]))
    }

    /// The rows of the entry keys `names` (in order; `nil` for one that is gone), each key
    /// being `name` minus its first `keyStart` bytes. With `value`, `EntryRow/preview` holds
    /// the whole value, else nothing.
    static func rows(
        _ names: [Data], keyStart: Int, namespace: String, version: String, value: Bool,
        on connection: RedisConnection
    ) throws -> [EntryRow?] {
        guard !names.isEmpty else { return [] }
        var commands: [[RedisArgument]] = []
        for name in names {
            let key = RedisArgument(name)
            commands.append(["HMGET", key, "c", "x", "s", "t"])
            commands.append(value ? ["HGET", key, "v"] : ["HSTRLEN", key, "v"])
        }
        let replies = try connection.pipeline(commands)
        return names.enumerated().map { index, name in
            guard let fields = replies[2 * index].array, fields.count == 4, let created = fields[0].integer else {
                return nil
            }
            let valueReply = replies[2 * index + 1]
            let valueBytes = value ? valueReply.data?.count : valueReply.integer.map(Int.init)
            guard let valueBytes else { return nil }
            let key = name.dropFirst(keyStart)
            let tags = fields[3].data.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
            return EntryRow(
                id: 0, namespace: namespace, key: PrintableKey.text(Data(key)), size: key.count + valueBytes,
                valueBytes: valueBytes, createdAt: created, expiresAt: fields[1].integer, staleUntil: fields[2].integer,
                lastAccessAt: nil, hits: 0, version: version, tags: tags.sorted(),
                preview: value ? valueReply.data ?? Data() : Data())
        }
    }
}
