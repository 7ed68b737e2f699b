import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// The whole state of the console at one moment: the navigation stack, the overlay (filter,
/// command line, confirmation), the status line and the live-refresh state. Controllers
/// change it; screens draw it. It holds data only as immutable snapshots.
package struct ConsoleModel: Sendable {
    /// The views, the root (Overview) first; the last one is shown.
    package internal(set) var views: [NavigationEntry]
    /// The stack before the last navigation, for "previous view".
    var previousViews: [NavigationEntry]?
    /// The latest Overview snapshot (the header, breadcrumbs and completions use it too).
    package internal(set) var overview: OverviewSnapshot?
    /// A text field or dialog over the view, which gets the keys first.
    package internal(set) var overlay: Overlay?
    /// The message in the status line.
    package internal(set) var status: StatusMessage?
    /// Refresh interval, pause, staleness.
    package internal(set) var live: LiveState
    /// An action being measured or run.
    package internal(set) var busy: BusyState?
    /// The last action of this session that can be undone.
    package internal(set) var lastUndo: UndoHandle?
    /// Milliseconds since the epoch, as of the last event.
    package internal(set) var now: Int64
    /// The file shown.
    package let location: String
    /// Whether actions are disabled.
    package let isReadOnly: Bool
    /// Whether the console browses a Redis keyspace rather than a cache file.
    package let isKeyspace: Bool
    /// Whether the raw Redis keyspace can be browsed (`:keyspace`): a keyspace console, or a
    /// Redis store's.
    package let hasKeyspace: Bool
    /// The Redis server as last read (Redis consoles; the header shows it).
    package internal(set) var server: RedisServerInfo?
    /// The theme in use.
    package internal(set) var themeName: String
    /// Whether mouse reporting is on.
    package internal(set) var mouseReporting = false
    /// Lines entered in the `/` and `:` fields, oldest first, for ↑/↓.
    var history = InputHistory()
    /// How long the last reads and the last frame took.
    package internal(set) var timings = Timings()
    var nextViewID = 1

    /// The view shown.
    package var current: NavigationEntry {
        get { views[views.count - 1] }
        set { views[views.count - 1] = newValue }
    }

    init(
        location: String, isReadOnly: Bool, isKeyspace: Bool = false, hasKeyspace: Bool = false, themeName: String,
        refreshInterval: Duration, now: Int64
    ) {
        self.hasKeyspace = hasKeyspace || isKeyspace
        views = [NavigationEntry(id: 0, view: isKeyspace ? KeyspaceView(prefix: Data()) : OverviewView())]
        self.location = location
        self.isReadOnly = isReadOnly
        self.isKeyspace = isKeyspace
        self.themeName = themeName
        self.now = now
        live = LiveState(interval: refreshInterval)
    }

    /// A stack entry for `view` with a fresh id.
    mutating func makeEntry(_ view: any ConsoleView) -> NavigationEntry {
        defer { nextViewID += 1 }
        return NavigationEntry(id: nextViewID, view: view)
    }

    /// The actions the store does not offer, with why: a Redis store expires entries itself,
    /// so it has nothing to sweep; another library's cache is shown, never read whole. Their
    /// keys are left off the hint line and refused.
    var unsupported: [KeyAction: String] {
        var actions: [KeyAction: String] = [:]
        if overview?.redis != nil { actions[.sweep] = "Redis expires entries itself: there is nothing to sweep." }
        if let format = overview?.file.foreignFormat {
            let reason = "This \(format) file's values are shown, never read whole (its key copies)."
            actions[.copyValue] = reason
            actions[.openPager] = reason
        }
        return actions
    }

    /// Every message of the session, oldest first (the latest ``messageLogLimit``).
    package internal(set) var messages: [StatusMessage] = []
    /// How many messages the log keeps.
    static let messageLogLimit = 500

    /// The namespaces known from the last Overview snapshot.
    var namespaceNames: [String] { overview?.namespaces.map(\.name) ?? [] }
}

/// One view on the navigation stack, with the id its reads carry.
package struct NavigationEntry: Sendable {
    /// Tells results meant for this view from results for one that was closed.
    package let id: Int
    /// The view.
    package internal(set) var view: any ConsoleView

    /// The view as an `OverviewView`, when it is one (settable through optional chaining).
    var overview: OverviewView? {
        get { view as? OverviewView }
        set { if let newValue { view = newValue } }
    }

    /// The view as an `EntriesView`, when it is one.
    var entries: EntriesView? {
        get { view as? EntriesView }
        set { if let newValue { view = newValue } }
    }

    /// The view as a `DetailView`, when it is one.
    var detail: DetailView? {
        get { view as? DetailView }
        set { if let newValue { view = newValue } }
    }

    /// Whether the view is the help.
    var isHelp: Bool { view is HelpView }
}

/// Lines entered in the `/` and `:` fields, for ↑/↓ recall.
struct InputHistory: Sendable {
    /// How many lines each field keeps.
    static let limit = 50
    private(set) var filters: [String] = []
    private(set) var commands: [String] = []

    /// Remembers `line` (not twice in a row, not empty).
    mutating func add(_ line: String, command: Bool) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        if command {
            if commands.last != trimmed { commands.append(trimmed) }
            commands = Array(commands.suffix(Self.limit))
        } else {
            if filters.last != trimmed { filters.append(trimmed) }
            filters = Array(filters.suffix(Self.limit))
        }
    }
}

/// The status line's message.
package struct StatusMessage: Sendable, Hashable {
    /// The text.
    package var text: String
    /// Whether it reports an error (drawn in the error style).
    package var isError: Bool
    /// When it was set (ms); informational messages fade after a while.
    package var since: Int64
}

/// Live refresh: how often, whether paused, and what the console knows about staleness.
package struct LiveState: Sendable, Hashable {
    /// The shortest and longest refresh intervals.
    package static let intervals: ClosedRange<Duration> = .milliseconds(250) ... .seconds(60)
    /// The steps `+` and `-` move through.
    static let steps: [Duration] = [
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30),
        .seconds(60),
    ]

    /// The refresh interval.
    package internal(set) var interval: Duration
    /// When refreshing was paused (ms), if it is.
    package internal(set) var pausedAt: Int64?
    /// When data was last loaded (ms).
    package internal(set) var loadedAt: Int64?
    /// Whether the order of rows is frozen: refreshes update figures in place and move no row.
    package internal(set) var isFrozen = false
    /// Whether a refresh is in flight.
    var refreshing = false
    /// Whether the file changed since the last load.
    var isStale = false

    init(interval: Duration) {
        self.interval = min(max(interval, Self.intervals.lowerBound), Self.intervals.upperBound)
    }
}

/// An action being measured or run.
package struct BusyState: Sendable, Hashable {
    /// What is happening: `Measuring clear tiles`, `Running clear tiles`.
    package var title: String
    /// Since when (ms).
    package var since: Int64
    /// Whether it writes to the file (a run or an undo, which quitting waits for; measuring
    /// only reads).
    package var isWriting = false
    /// Whether the operator asked to quit meanwhile: the console quits when it finishes.
    package var quitsAfter = false
    /// How far a running action is.
    package var progress: ActionProgress?
    /// Stops the running action after its current batch (Esc).
    package var stop: ActionStop?
}

/// How long the console's own work took.
package struct Timings: Sendable, Hashable {
    /// The last reads, in milliseconds.
    package var queryMilliseconds: Double?
    /// The last frame (render and draw), in milliseconds.
    package var renderMilliseconds: Double?
}
