import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// What a keyspace view asks for: the level below `prefix`, and whether to start the scan over.
package struct KeyspaceRequest: Sendable, Hashable {
    /// The level's prefix (empty: the top level).
    package var prefix: Data
    /// Whether to drop the scan so far and start a new one (`r`).
    package var rescan: Bool

    package init(prefix: Data, rescan: Bool = false) {
        self.prefix = prefix
        self.rescan = rescan
    }
}

/// One level of a Redis keyspace as the console shows it, with the server at that moment.
package struct KeyspaceSnapshot: Sendable, Hashable {
    /// The server: version, role, memory, `DBSIZE`.
    package var server: RedisServerInfo
    /// The level's children and totals, and how far the scan is.
    package var level: KeyspaceLevel

    package init(server: RedisServerInfo, level: KeyspaceLevel) {
        self.server = server
        self.level = level
    }
}
