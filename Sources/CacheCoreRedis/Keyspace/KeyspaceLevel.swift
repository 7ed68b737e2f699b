import CacheCore
import Foundation

/// How far a keyspace scan is.
package struct KeyspaceScanProgress: Sendable, Hashable, Codable, SteppedScanProgress {
    /// Distinct keys found so far (under the scan's prefix).
    package var keysFound: Int
    /// `DBSIZE` when the scan started: about how many keys the scan walks (all of them; a
    /// `MATCH` scan walks every key to find those under its prefix).
    package var keysInDatabase: Int
    /// `SCAN` calls made so far.
    package var batches: Int
    /// Whether the scan is limited to a prefix (`MATCH`): then `keysInDatabase` is what it
    /// walks, not what it will find.
    package var isMatchScan: Bool
    /// Whether the cursor came back to 0: every key that existed for the whole scan was seen.
    package var isComplete: Bool
}

/// One level of the keyspace tree: the children of a prefix, with their totals.
package struct KeyspaceLevel: Sendable, Hashable, Codable {
    /// The level's prefix as bytes (empty at the root).
    package var prefix: Data
    /// `prefix` as printable text.
    package var prefixText: String
    /// The separator the tree splits names on.
    package var separator: String
    /// The children shown: the largest first (by memory, then name), at most the limit asked for.
    package var children: [KeyspaceNode]
    /// How many children the level has in all (more than `children` holds when cut).
    package var childCount: Int
    /// Keys under the prefix.
    package var keys: KeyspaceAmount
    /// `MEMORY USAGE` of the keys under the prefix, in bytes.
    package var bytes: KeyspaceAmount
    /// Keys under the prefix counted but not listed, past the browser's memory bound (its
    /// counts are then estimates, `~`); a scan of the prefix alone lists them.
    package var unlistedKeys: Int
    /// The scan the level comes from.
    package var scan: KeyspaceScanProgress
}
