import CacheCore
import Foundation

/// How far a keyspace scan is.
public struct KeyspaceScanProgress: Sendable, Hashable, Codable, SteppedScanProgress {
    /// Distinct keys found so far (under the scan's prefix).
    public var keysFound: Int
    /// `DBSIZE` when the scan started: about how many keys the scan walks (all of them; a
    /// `MATCH` scan walks every key to find those under its prefix).
    public var keysInDatabase: Int
    /// `SCAN` calls made so far.
    public var batches: Int
    /// Whether the scan is limited to a prefix (`MATCH`): then `keysInDatabase` is what it
    /// walks, not what it will find.
    public var isMatchScan: Bool
    /// Whether the cursor came back to 0: every key that existed for the whole scan was seen.
    public var isComplete: Bool
}

/// One level of the keyspace tree: the children of a prefix, with their totals.
public struct KeyspaceLevel: Sendable, Hashable, Codable {
    /// The level's prefix as bytes (empty at the root).
    public var prefix: Data
    /// `prefix` as printable text.
    public var prefixText: String
    /// The separator the tree splits names on.
    public var separator: String
    /// The children shown: the largest first (by memory, then name), at most the limit asked for.
    public var children: [KeyspaceNode]
    /// How many children the level has in all (more than `children` holds when cut).
    public var childCount: Int
    /// Keys under the prefix.
    public var keys: KeyspaceAmount
    /// `MEMORY USAGE` of the keys under the prefix, in bytes.
    public var bytes: KeyspaceAmount
    /// Keys under the prefix counted but not listed, past the browser's memory bound (its
    /// counts are then estimates, `~`); a scan of the prefix alone lists them.
    public var unlistedKeys: Int
    /// The scan the level comes from.
    public var scan: KeyspaceScanProgress
}
