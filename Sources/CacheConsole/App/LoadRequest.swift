import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// A read the console needs, tagged with the view it is for.
package enum LoadRequest: Sendable, Hashable {
    /// The Overview snapshot (also feeds the header and completions).
    case overview
    /// A page of the Entries view `view`: page `page` of its chain, in generation
    /// `generation` of its order and filter; `replacing` reloads the page and drops the pages
    /// after it (a refresh).
    case entries(view: Int, generation: Int, page: Int, replacing: Bool, EntriesRequest)
    /// The entry shown by the Detail view `view`.
    case detail(view: Int, id: EntryReference, hex: Bool)
    /// The timeline shown by view `view`.
    case timeline(view: Int, namespace: String?)
    /// The statistics shown by view `view`.
    case statistics(view: Int, window: StatisticsWindow)
    /// The audit log shown by view `view`.
    case audit(view: Int)
    /// A level of the Redis keyspace shown by view `view`.
    case keyspace(view: Int, KeyspaceRequest)
    /// The Redis key shown by view `view`.
    case redisKey(view: Int, key: Data)

    /// The view the read is for (`nil`: the Overview snapshot, which every view gets).
    var viewID: Int? {
        switch self {
        case .overview: nil
        case .entries(let view, _, _, _, _), .detail(let view, _, _), .timeline(let view, _), .statistics(let view, _),
            .audit(let view), .keyspace(let view, _), .redisKey(let view, _):
            view
        }
    }

    /// Runs the read on `source`.
    func perform(on source: any ConsoleDataSource) throws -> LoadedData {
        switch self {
        case .overview: .overview(try source.overview())
        case .entries(_, _, _, _, let request): .entries(try source.entries(request))
        case .detail(_, let id, let hex): .detail(try source.entry(id: id, hex: hex))
        case .timeline(_, let namespace): .timeline(try source.timeline(namespace: namespace))
        case .statistics(_, let window): .statistics(try source.statistics(window: window))
        case .audit: .audit(try source.auditLog(limit: 200))
        case .keyspace(_, let request): .keyspace(try source.keyspace(request))
        case .redisKey(_, let key): .redisKey(try source.redisKey(key))
        }
    }
}

/// What a ``LoadRequest`` read.
package enum LoadedData: Sendable, Hashable {
    /// The Overview snapshot.
    case overview(OverviewSnapshot)
    /// A page of entries.
    case entries(EntriesPage)
    /// An entry, or `nil` when it is gone.
    case detail(EntryDetailSnapshot?)
    /// A timeline.
    case timeline(TimelineSnapshot)
    /// Statistics.
    case statistics(StatisticsSnapshot)
    /// Audit rows.
    case audit([AuditEntry])
    /// A level of a Redis keyspace, with the server.
    case keyspace(KeyspaceSnapshot)
    /// A Redis key, or `nil` when it is gone.
    case redisKey(RedisKeyDetail?)
}

/// A finished read: what was asked, what came back (or the error), and how long it took.
package struct LoadResult: Sendable, Hashable {
    /// The request.
    package var request: LoadRequest
    /// The data, or the error as one line.
    package var outcome: Result<LoadedData, ConsoleError>
    /// How long the read took.
    package var duration: Duration

    /// A result with these parts.
    package init(request: LoadRequest, outcome: Result<LoadedData, ConsoleError>, duration: Duration) {
        self.request = request
        self.outcome = outcome
        self.duration = duration
    }
}
