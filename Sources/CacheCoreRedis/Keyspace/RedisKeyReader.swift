import CacheCore
import Foundation

/// Reads one key in full for ``RedisKeyspace/key(_:)``, with read commands only and bounded
/// work: at most ``RedisKeyDetail/previewBytes`` of a string and
/// ``RedisKeyDetail/previewItems`` items of anything else.
enum RedisKeyReader {
    /// The detail of `key`; `nil` when it does not exist.
    static func read(_ key: Data, on connection: RedisConnection, now: Int64) throws(RedisError) -> RedisKeyDetail? {
        let name = RedisArgument(key)
        let facts = try KeyFactsReader.checked(
            try connection.pipeline([
                ["TYPE", name], ["OBJECT", "ENCODING", name], ["PTTL", name], ["MEMORY", "USAGE", name],
            ]),
            endpoint: connection.endpoint.description, isRouted: true)
        guard let typeName = facts[0].string, typeName != "none" else { return nil }
        let type = RedisKeyType(rawValue: typeName)
        let encoding = facts[1].string ?? "?"
        let ttl = facts[2].integer.flatMap { $0 >= 0 ? $0 : nil }
        let (length, unit) = try Self.length(type, key, on: connection)
        let sampled = KeyFactsReader.sampledEncodings.contains(encoding) && (length ?? .max) > KeyFactsReader.sampleSize
        return RedisKeyDetail(
            key: key, keyText: PrintableKey.text(key), type: type, encoding: encoding, ttlMilliseconds: ttl,
            expiresAt: ttl.map { now.addingClamped($0) },
            bytes: KeyspaceAmount(Int(max(0, facts[3].integer ?? 0)), isSampled: sampled),
            length: length.map { Int(max(0, $0)) }, lengthUnit: unit,
            preview: try preview(type, key, length: length ?? 0, on: connection))
    }

    private static func length(_ type: RedisKeyType, _ key: Data, on connection: RedisConnection) throws(RedisError)
        -> (Int64?, String?)
    {
        let units: [RedisKeyType: String] = [
            .string: "bytes", .list: "items", .hash: "fields", .set: "members", .zset: "members", .stream: "entries",
        ]
        guard let unit = units[type] else { return (nil, nil) }
        return (try connection.command(KeyFactsReader.lengthCommand(type, key)).integer, unit)
    }

    private static func preview(_ type: RedisKeyType, _ key: Data, length: Int64, on connection: RedisConnection)
        throws(RedisError) -> RedisValuePreview
    {
        let name = RedisArgument(key)
        let limit = RedisKeyDetail.previewItems
        let truncated = length > Int64(limit)
        switch type {
        case .string:
            let bytes = try connection.command(["GETRANGE", name, 0, RedisArgument(RedisKeyDetail.previewBytes - 1)])
                .data
            return stringPreview(bytes ?? Data(), isTruncated: length > Int64(RedisKeyDetail.previewBytes))
        case .list:
            let list = try connection.command(["LRANGE", name, 0, RedisArgument(limit - 1)]).array ?? []
            return items(list.map { RedisPreviewItem(name: nil, value: text($0)) }, isTruncated: truncated)
        case .hash:
            let fields = try scan("HSCAN", key, on: connection)
            return items(
                pairs(fields).map { RedisPreviewItem(name: text($0), value: text($1)) }, isTruncated: truncated)
        case .set:
            let members = try scan("SSCAN", key, on: connection)
            return items(members.map { RedisPreviewItem(name: nil, value: text($0)) }, isTruncated: truncated)
        case .zset:
            let flat = try connection.command(["ZRANGE", name, 0, RedisArgument(limit - 1), "WITHSCORES"]).array ?? []
            return items(pairs(flat).map { RedisPreviewItem(name: text($0), value: text($1)) }, isTruncated: truncated)
        case .stream:
            let entries = try connection.command(["XRANGE", name, "-", "+", "COUNT", RedisArgument(limit)]).array ?? []
            let rendered = entries.compactMap { entry -> RedisPreviewItem? in
                guard let parts = entry.array, parts.count == 2 else { return nil }
                let fields = pairs(parts[1].array ?? []).map { text($0) + "=" + text($1) }
                return RedisPreviewItem(name: text(parts[0]), value: fields.joined(separator: " "))
            }
            return items(rendered, isTruncated: truncated)
        default:
            return RedisValuePreview(format: "none", isTruncated: false)
        }
    }

    /// `HSCAN`/`SSCAN` from cursor 0 until ``RedisKeyDetail/previewItems`` elements (a hash's
    /// count fields and values) or the end; at most 10 calls.
    private static func scan(_ command: String, _ key: Data, on connection: RedisConnection) throws(RedisError)
        -> [RedisReply]
    {
        let wanted = RedisKeyDetail.previewItems * (command == "HSCAN" ? 2 : 1)
        var cursor = "0"
        var found: [RedisReply] = []
        for _ in 0..<10 {
            let reply =
                try connection.command(
                    [
                        RedisArgument(command), RedisArgument(key), RedisArgument(cursor), "COUNT",
                        RedisArgument(RedisKeyDetail.previewItems),
                    ]
                ).array ?? []
            guard reply.count == 2, let next = reply[0].string else { break }
            found += reply[1].array ?? []
            cursor = next
            if cursor == "0" || found.count >= wanted { break }
        }
        return Array(found.prefix(wanted))
    }

    private static func items(_ items: [RedisPreviewItem], isTruncated: Bool) -> RedisValuePreview {
        RedisValuePreview(
            format: "items", items: Array(items.prefix(RedisKeyDetail.previewItems)),
            isTruncated: isTruncated || items.count > RedisKeyDetail.previewItems)
    }

    /// A string's first bytes: text when they are UTF-8 (a character cut at the end
    /// aside) without control characters other than tab and line breaks, else a hex dump.
    static func stringPreview(_ bytes: Data, isTruncated: Bool) -> RedisValuePreview {
        for cut in 0...min(3, bytes.count) {
            guard let text = String(validating: bytes.dropLast(cut), as: UTF8.self) else { continue }
            guard cut == 0 || isTruncated else { break }
            let isText = !text.unicodeScalars.contains { scalar in
                scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
            }
            guard isText else { break }
            return RedisValuePreview(format: "text", text: text, isTruncated: isTruncated)
        }
        return RedisValuePreview(format: "hex", hex: HexDumpLine.lines([UInt8](bytes)), isTruncated: isTruncated)
    }

    private static func text(_ reply: RedisReply) -> String {
        switch reply {
        case .bulk(let data): PrintableKey.text(data)
        case .integer(let value): String(value)
        case .status(let text): text
        default: ""
        }
    }

    private static func pairs(_ flat: [RedisReply]) -> [(RedisReply, RedisReply)] {
        stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
    }
}
