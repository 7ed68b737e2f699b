import CacheCore
import Foundation

/// One element of a value's preview: a list item or set member (`value` only), a hash
/// field, a sorted-set member with its score, or a stream entry with its id.
package struct RedisPreviewItem: Sendable, Hashable, Codable {
    /// The field, member or entry id (`nil` for list items and set members).
    package var name: String?
    /// The item, the field's value, the member's score, or the entry's fields (`f=v f=v`).
    package var value: String
}

/// The first part of a value, rendered for reading. Bytes that are not UTF-8 show as `\xNN`
/// (`PrintableKey`); a string that is not text shows as a hex dump.
package struct RedisValuePreview: Sendable, Hashable, Codable {
    /// How the preview reads: `text` or `hex` for strings, `items` for the other types,
    /// `none` for types it cannot show (modules).
    package var format: String
    /// A string's first bytes as text.
    package var text: String?
    /// A string's first bytes as a hex dump.
    package var hex: [HexDumpLine]?
    /// The first items of a list, hash, set, sorted set or stream.
    package var items: [RedisPreviewItem]?
    /// Whether the value holds more than the preview shows.
    package var isTruncated: Bool
}

/// One key in full: `TYPE`, `OBJECT ENCODING`, `PTTL`, `MEMORY USAGE`, its length and a
/// bounded preview of its value.
package struct RedisKeyDetail: Sendable, Hashable, Codable {
    /// The key's bytes.
    package var key: Data
    /// The key as printable text.
    package var keyText: String
    /// `TYPE`.
    package var type: RedisKeyType
    /// `OBJECT ENCODING` (`listpack`, `hashtable`, `embstr`, …).
    package var encoding: String
    /// `PTTL` in milliseconds when read (`nil`: no expiry).
    package var ttlMilliseconds: Int64?
    /// When it expires, in milliseconds since the epoch (`nil`: never).
    package var expiresAt: Int64?
    /// `MEMORY USAGE` in bytes (sampled for large collections: see `bytes`'s mark).
    package var bytes: KeyspaceAmount
    /// `STRLEN`, `LLEN`, `HLEN`, `SCARD`, `ZCARD` or `XLEN` (`nil` for module types).
    package var length: Int?
    /// What `length` counts: `bytes`, `items`, `fields`, `members` or `entries`.
    package var lengthUnit: String?
    /// The value's first part.
    package var preview: RedisValuePreview

    /// A string value's bytes previewed (4 KiB).
    package static let previewBytes = 4096
    /// A collection's items previewed.
    package static let previewItems = 50
}
