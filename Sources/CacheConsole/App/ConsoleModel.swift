import CacheCore

/// The whole state of the console at one moment: the navigation stack, the overlay (filter,
/// command line, confirmation), the status line and the live-refresh state. Controllers
/// change it; screens draw it. It holds data only as immutable snapshots.
public struct ConsoleModel: Sendable {
    /// The views, the root (Overview) first; the last one is shown.
    public internal(set) var views: [View]
    /// The stack before the last navigation, for "previous view".
    var previousViews: [View]?
    /// The latest Overview snapshot (the header, breadcrumbs and completions use it too).
    public internal(set) var overview: OverviewSnapshot?
    /// A text field or dialog over the view, which gets the keys first.
    public internal(set) var overlay: Overlay?
    /// The message in the status line.
    public internal(set) var status: StatusMessage?
    /// Refresh interval, pause, staleness.
    public internal(set) var live: LiveState
    /// An action being measured or run.
    public internal(set) var busy: BusyState?
    /// The last action of this session that can be undone.
    public internal(set) var lastUndo: UndoHandle?
    /// Milliseconds since the epoch, as of the last event.
    public internal(set) var now: Int64
    /// The file shown.
    public let location: String
    /// Whether actions are disabled.
    public let isReadOnly: Bool
    /// The theme in use.
    public internal(set) var themeName: String
    /// Whether mouse reporting is on.
    public internal(set) var mouseReporting = false
    /// How long the last reads and the last frame took.
    public internal(set) var timings = Timings()
    var nextViewID = 1

    /// The view shown.
    public var current: View {
        get { views[views.count - 1] }
        set { views[views.count - 1] = newValue }
    }

    init(location: String, isReadOnly: Bool, themeName: String, refreshInterval: Duration, now: Int64) {
        views = [View(id: 0, content: .overview(OverviewView()))]
        self.location = location
        self.isReadOnly = isReadOnly
        self.themeName = themeName
        self.now = now
        live = LiveState(interval: refreshInterval)
    }

    /// A new view with a fresh id.
    mutating func makeView(_ content: View.Content) -> View {
        defer { nextViewID += 1 }
        return View(id: nextViewID, content: content)
    }

    /// The namespaces known from the last Overview snapshot.
    var namespaceNames: [String] { overview?.namespaces.map(\.name) ?? [] }
}

/// One screen on the navigation stack.
public struct View: Sendable {
    /// What the view shows.
    public enum Content: Sendable {
        /// The store at a glance.
        case overview(OverviewView)
        /// A namespace's entries.
        case entries(EntriesView)
        /// One entry.
        case detail(DetailView)
        /// The expiry timeline.
        case timeline(TimelineView)
        /// Telemetry graphs.
        case statistics(StatisticsView)
        /// The audit log.
        case audit(AuditView)
        /// The key bindings and commands.
        case help(HelpView)
    }

    /// Tells results meant for this view from results for one that was closed.
    public let id: Int
    /// What it shows.
    public internal(set) var content: Content
}

/// The status line's message.
public struct StatusMessage: Sendable, Hashable {
    /// The text.
    public var text: String
    /// Whether it reports an error (drawn in the error style).
    public var isError: Bool
    /// When it was set (ms); informational messages fade after a while.
    public var since: Int64
}

/// Live refresh: how often, whether paused, and what the console knows about staleness.
public struct LiveState: Sendable, Hashable {
    /// The shortest and longest refresh intervals.
    public static let intervals: ClosedRange<Duration> = .milliseconds(250) ... .seconds(60)
    /// The steps `+` and `-` move through.
    static let steps: [Duration] = [
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30),
        .seconds(60),
    ]

    /// The refresh interval.
    public internal(set) var interval: Duration
    /// When refreshing was paused (ms), if it is.
    public internal(set) var pausedAt: Int64?
    /// When data was last loaded (ms).
    public internal(set) var loadedAt: Int64?
    /// Whether a refresh is in flight.
    var refreshing = false
    /// Whether the file changed since the last load.
    var isStale = false

    init(interval: Duration) {
        self.interval = min(max(interval, Self.intervals.lowerBound), Self.intervals.upperBound)
    }
}

/// An action being measured or run.
public struct BusyState: Sendable, Hashable {
    /// What is happening: `Measuring clear tiles`, `Running clear tiles`.
    public var title: String
    /// Since when (ms).
    public var since: Int64
}

/// How long the console's own work took.
public struct Timings: Sendable, Hashable {
    /// The last reads, in milliseconds.
    public var queryMilliseconds: Double?
    /// The last frame (render and draw), in milliseconds.
    public var renderMilliseconds: Double?
}
