import TerminalUI
import CacheCore
import CacheCoreRedis

/// What the Overview screen (and the header) shows: the file, the processes attached to it,
/// recent activity and every namespace. Times are milliseconds since the Unix epoch.
package struct OverviewSnapshot: Sendable, Hashable {
    /// The file's sizes and totals.
    package var file: FileFacts
    /// Processes that attached to the file (one row per process, however many stores it
    /// opened), live ones first.
    package var processes: [ProcessFacts]
    /// Hit rate and rates per second from the file's telemetry.
    package var activity: ActivityFacts
    /// Every namespace, by name.
    package var namespaces: [NamespaceFacts]
    /// The Redis server and how far its entries are counted, for a Redis store (its
    /// ``file`` then holds the URL, the used memory and the counted entries).
    package var redis: RedisFacts?
    /// The tags entries carry (for Tab completion), sorted; empty where the store cannot list
    /// them cheaply.
    package var tags: [String]

    /// A snapshot of these parts; `stores` (one per store a process opened, oldest first)
    /// become one row per process.
    package init(
        file: FileFacts, stores: [ProcessFacts], activity: ActivityFacts, namespaces: [NamespaceFacts],
        redis: RedisFacts? = nil, tags: [String] = []
    ) {
        self.redis = redis
        self.tags = tags
        self.file = file
        self.processes = ProcessFacts.perProcess(stores)
        self.activity = activity
        self.namespaces = namespaces
    }
}

/// The cache file at a glance.
package struct FileFacts: Sendable, Hashable {
    /// The file's path.
    package var path: String
    /// The format version.
    package var formatVersion: Int
    /// The database file's size in bytes.
    package var fileBytes: Int64
    /// The write-ahead log's size in bytes.
    package var walBytes: Int64
    /// Keys and values of the stored entries, in bytes.
    package var payloadBytes: Int64
    /// Stored entries, expired ones not yet swept included.
    package var entries: Int
    /// The time of the snapshot, by the store's clock.
    package var now: Int64
    /// Who owns the file when it is not the user running the console (see
    /// ``CacheStore/fileOwner``).
    package var owner: String?
    /// Whether ``payloadBytes`` is still being counted (shown as `…`, not as a number).
    package var isPayloadCounting = false
    /// The format of a cache another library wrote (`python-diskcache`, …); `nil` for a
    /// CacheDeck file. Such a file records no apps, telemetry or versions.
    package var foreignFormat: String?

    /// Facts with these values.
    package init(
        path: String, formatVersion: Int, fileBytes: Int64, walBytes: Int64, payloadBytes: Int64, entries: Int,
        now: Int64, owner: String? = nil
    ) {
        self.owner = owner
        self.path = path
        self.formatVersion = formatVersion
        self.fileBytes = fileBytes
        self.walBytes = walBytes
        self.payloadBytes = payloadBytes
        self.entries = entries
        self.now = now
    }
}

/// A process attached to the file (through one or more of its stores).
package struct ProcessFacts: Sendable, Hashable {
    /// The process id.
    package var pid: Int32
    /// The program's name.
    package var program: String
    /// The host it runs on.
    package var host: String
    /// Whether it looks alive (recent heartbeat, not closed).
    package var isLive: Bool
    /// Its last heartbeat.
    package var lastSeen: Int64
    /// How many of its stores attached (a process may open the file more than once).
    package var stores = 1

    /// Facts of one store with these values.
    package init(pid: Int32, program: String, host: String, isLive: Bool, lastSeen: Int64) {
        self.pid = pid
        self.program = program
        self.host = host
        self.isLive = isLive
        self.lastSeen = lastSeen
    }

    /// `stores` (oldest first) as one row per process (host, pid and program), live if any of
    /// its stores is, seen when any last was; live processes first, each group in order.
    static func perProcess(_ stores: [ProcessFacts]) -> [ProcessFacts] {
        var rows: [ProcessFacts] = []
        for store in stores {
            if let index = rows.firstIndex(where: {
                $0.host == store.host && $0.pid == store.pid && $0.program == store.program
            }) {
                rows[index].isLive = rows[index].isLive || store.isLive
                rows[index].lastSeen = max(rows[index].lastSeen, store.lastSeen)
                rows[index].stores += 1
            } else {
                rows.append(store)
            }
        }
        return rows.filter(\.isLive) + rows.filter { !$0.isLive }
    }
}

/// Recent activity of every process on the file.
package struct ActivityFacts: Sendable, Hashable {
    /// The hit rate of each of the last seconds, oldest first (not-a-number for a second
    /// without reads).
    package var hitRates: [Double]
    /// The hit rate over the seconds the rates are over (``window``); `nil` without reads.
    package var hitRate: Double?
    /// Reads, sets and removes per second, recently.
    package var operationsPerSecond: Double
    /// Expired entries removed per second, recently.
    package var expirationsPerSecond: Double
    /// Entries evicted per second, recently.
    package var evictionsPerSecond: Double
    /// The seconds the hit rate and the rates are over: the ten before the one still filling.
    package static let window = 10

    /// Activity with these values.
    package init(
        hitRates: [Double], hitRate: Double?, operationsPerSecond: Double, expirationsPerSecond: Double,
        evictionsPerSecond: Double
    ) {
        self.hitRates = hitRates
        self.hitRate = hitRate
        self.operationsPerSecond = operationsPerSecond
        self.expirationsPerSecond = expirationsPerSecond
        self.evictionsPerSecond = evictionsPerSecond
    }
}

/// One namespace at a glance.
package struct NamespaceFacts: Sendable, Hashable {
    /// The name.
    package var name: String
    /// Stored entries, expired ones not yet swept included.
    package var entries: Int
    /// Expired entries waiting for a sweep.
    package var expired: Int
    /// Key and value bytes.
    package var bytes: Int64
    /// The recent hit rate; `nil` without reads.
    package var hitRate: Double?
    /// What apps did in the namespace in the last minute, the figures that explain the hit
    /// rate; `nil` where the store records no telemetry (another library's cache file).
    package var lastMinute: ActivityCounts?
    /// The namespace version.
    package var version: String
    /// Whether the counts are exact; `false`: lower bounds (a Redis census still counting).
    package var isExact: Bool
    /// Whether entries can expire (`false`: `expired` is unknown, not zero).
    package var hasExpiry = true
    /// Whether ``bytes`` is still being counted (shown as `…`, not as a number).
    package var isBytesCounting = false

    /// Facts with these values.
    package init(
        name: String, entries: Int, expired: Int, bytes: Int64, hitRate: Double?, version: String, isExact: Bool = true
    ) {
        self.isExact = isExact
        self.name = name
        self.entries = entries
        self.expired = expired
        self.bytes = bytes
        self.hitRate = hitRate
        self.version = version
    }
}

/// A Redis store's server, and how far its entries are counted.
package struct RedisFacts: Sendable, Hashable {
    /// The server: version, role, memory, `DBSIZE`.
    package var server: RedisServerInfo
    /// The key prefix of the store.
    package var prefix: String
    /// When the counts shown were complete (ms); `nil` while the first count runs (counts
    /// are lower bounds then).
    package var countedAt: Int64?

    /// Facts with these values.
    package init(server: RedisServerInfo, prefix: String, countedAt: Int64?) {
        self.server = server
        self.prefix = prefix
        self.countedAt = countedAt
    }
}
