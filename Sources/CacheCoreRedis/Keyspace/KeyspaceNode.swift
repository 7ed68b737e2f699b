import CacheCore
import Foundation

/// A Redis data type, as `TYPE` names it (`module` types keep their own name).
package struct RedisKeyType: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name `TYPE` answers.
    package var rawValue: String
    /// The type `TYPE` names `rawValue`.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// A string (or number, or bytes).
    package static let string = RedisKeyType(rawValue: "string")
    /// A list.
    package static let list = RedisKeyType(rawValue: "list")
    /// A hash of fields.
    package static let hash = RedisKeyType(rawValue: "hash")
    /// A set.
    package static let set = RedisKeyType(rawValue: "set")
    /// A sorted set.
    package static let zset = RedisKeyType(rawValue: "zset")
    /// A stream.
    package static let stream = RedisKeyType(rawValue: "stream")
    /// Not read (a key a full keyspace tree counts without listing it).
    static let unread = RedisKeyType(rawValue: "?")

    /// The name `TYPE` answers.
    package var description: String { rawValue }

    /// Decodes the name alone (JSON `"hash"`).
    package init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the name alone (JSON `"hash"`).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A number the keyspace browser shows, with how far it can be trusted.
package struct KeyspaceAmount: Sendable, Hashable, Codable {
    /// The value.
    package var value: Int
    /// Whether the scan is still running, so more may be found: the true value is at least this.
    package var isLowerBound: Bool
    /// Whether part of it is an estimate: Redis' (`MEMORY USAGE` samples large hashes, sets,
    /// sorted sets, lists and streams), or a count over keys the browser did not list (past its
    /// memory bound, where a key `SCAN` returns twice cannot be told apart).
    package var isSampled: Bool

    /// An amount; exact unless marked.
    package init(_ value: Int, isLowerBound: Bool = false, isSampled: Bool = false) {
        self.value = value
        self.isLowerBound = isLowerBound
        self.isSampled = isSampled
    }

    /// Whether the value is exact.
    package var isExact: Bool { !isLowerBound && !isSampled }

    /// The mark to show before the value: `≥` (lower bound), `~` (estimate) or nothing.
    package var mark: String { isLowerBound ? "≥" : isSampled ? "~" : "" }
}

/// One child of a level of the keyspace tree: a prefix that groups keys, or a key.
package struct KeyspaceNode: Sendable, Hashable, Codable {
    /// What the child is.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// A prefix ending with the separator (`user:`), grouping the keys below it.
        case prefix
        /// A key.
        case key
    }

    /// Prefix or key.
    package var kind: Kind
    /// The child's part of the name after the level's prefix (a prefix's ends with the
    /// separator), as bytes.
    package var name: Data
    /// `name` as printable text (`PrintableKey` escapes for bytes that are not UTF-8).
    package var nameText: String
    /// The whole key, or the whole prefix, as bytes.
    package var path: Data
    /// How many keys it holds (1 for a key).
    package var keys: KeyspaceAmount
    /// `MEMORY USAGE` of its keys, in bytes.
    package var bytes: KeyspaceAmount
    /// A key's type (`nil` for a prefix).
    package var type: RedisKeyType?
    /// When a key expires, in milliseconds since the epoch, from `PTTL` when it was scanned
    /// (`nil`: a prefix, or a key that never expires).
    package var expiresAt: Int64?
}
