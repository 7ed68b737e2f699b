import TerminalUI
import CacheCore
import CacheCoreRedis

/// One view of the console (the Overview, a namespace's entries, an entry, the timeline,
/// the statistics, the audit log, the help): its own state and everything it does. The
/// ``ConsoleController`` keeps the stack of views, the overlays and the effects; it hands
/// each view the keys its bindings name, the data it asked for, and the screen area to draw.
package protocol ConsoleView: Sendable {
    /// The view's name in the help.
    static var title: String { get }
    /// Every key the view answers besides the global ones, in hint order: the single
    /// source of its dispatch, its hints and its help.
    static var bindings: [KeyBinding] { get }

    /// The tab that shows this view (`nil` for the Entries and Detail views).
    var tab: KeyAction? { get }
    /// Whether the view is one switched to from anywhere (timeline, statistics, audit):
    /// switching from one to another replaces it rather than stacking up.
    var isAuxiliary: Bool { get }
    /// The namespace the view is about, if it is about one.
    var subjectNamespace: String? { get }

    /// The view's part of the breadcrumbs (`nil` for none).
    func breadcrumb(in context: ViewContext) -> String?
    /// The bindings the hint line offers now (by default those of ``bindings`` that have
    /// a hint).
    func hints(in context: ViewContext) -> [KeyBinding]
    /// Takes `key` before the key map does (a menu waiting for its pick); `nil` leaves it to
    /// the key map.
    mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]?
    /// Whether the view answers `action` now (by default: whether ``bindings`` has it).
    func claims(_ action: KeyAction) -> Bool
    /// Does what `action` (one of ``bindings``) means here.
    mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect]
    /// A click at `point` inside `area`, the view's part of the screen (mouse reporting on).
    mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect]
    /// What the view needs read: everything when it opens; for a refresh, its visible part.
    mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest]
    /// Whether the view still wants `request`, one of its reads whose turn has come (by
    /// default yes; the Entries view no longer wants pages of an order or filter it left).
    func wants(_ request: LoadRequest) -> Bool
    /// Stores what a read brought back (the Overview snapshot reaches every view).
    mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    /// A read for the view failed (the console reports the error).
    mutating func loadFailed(_ request: LoadRequest)
    /// The terminal was resized to `size`.
    mutating func resized(to size: Size)
    /// Forgets highlights from before `cutoff` and changes from before `quietCutoff` (ms).
    mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64)
    /// Draws the view into `area`.
    func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions)
}

extension ConsoleView {
    package var tab: KeyAction? { nil }
    package var isAuxiliary: Bool { false }
    package var subjectNamespace: String? { nil }

    package func hints(in context: ViewContext) -> [KeyBinding] {
        Self.bindings.filter { $0.hint != nil }
    }

    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? { nil }

    package func claims(_ action: KeyAction) -> Bool {
        Self.bindings.contains { $0.action == action }
    }

    package mutating func loadFailed(_ request: LoadRequest) {}

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest] { [] }

    package func wants(_ request: LoadRequest) -> Bool { true }

    package mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    { [] }

    package mutating func resized(to size: Size) {}

    package mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64) {}

    /// Whether `self` and `other` show the same thing (re-opening it does nothing).
    func isSame(as other: any ConsoleView) -> Bool {
        type(of: self) == type(of: other) && subjectNamespace == other.subjectNamespace
    }
}

/// Every kind of view, in the order the help lists them.
enum ConsoleViews {
    static let all: [any ConsoleView.Type] = [
        OverviewView.self, EntriesView.self, DetailView.self, TimelineView.self, StatisticsView.self, AuditView.self,
        HelpView.self,
    ]

    /// The views of a Redis keyspace console, in the order the help lists them.
    static let keyspace: [any ConsoleView.Type] = [KeyspaceView.self, RedisKeyView.self, HelpView.self]
}

/// One key binding of a view, or of the whole console: the action (whose keys the key map
/// holds), its label on the hint line, and what the help says it does.
package struct KeyBinding: Sendable, Hashable {
    /// What the key does.
    package var action: KeyAction
    /// The label on the hint line (`nil`: only in the help).
    package var hint: String?
    /// What the help says it does.
    package var help: String
    /// Whether it changes the file (hidden and refused when read-only).
    package var isDestructive = false

    /// A binding of `action`.
    package init(_ action: KeyAction, hint: String? = nil, help: String, destructive: Bool = false) {
        self.action = action
        self.hint = hint
        self.help = help
        self.isDestructive = destructive
    }

    /// This binding with another hint.
    func hinted(_ text: String?) -> KeyBinding {
        var binding = self
        binding.hint = text
        return binding
    }

    /// Moving through a list.
    static let listMotion: [KeyBinding] = [
        KeyBinding(.moveUp, help: "Move up"), KeyBinding(.moveDown, help: "Move down"),
        KeyBinding(.pageUp, help: "Page up"), KeyBinding(.pageDown, help: "Page down"),
        KeyBinding(.top, help: "First row"), KeyBinding(.bottom, help: "Last row"),
    ]
}

/// What a view sees of the console while it handles a key or data or draws, and what it asks
/// the console to do besides returning effects (the controller carries the requests out
/// after the view is stored back).
package struct ViewContext {
    /// The id of the view in the stack.
    package let viewID: Int
    /// The terminal size.
    package let size: Size
    /// The console's state (read only: views change themselves and ask for the rest).
    package let model: ConsoleModel
    /// Keys, themes, refresh interval.
    package let settings: ConsoleSettings
    /// What the view asked for, in order.
    private(set) var requests: [Request] = []

    /// Something a view asks of the console.
    enum Request {
        case report(String, isError: Bool)
        case show(any ConsoleView)
        case action(ActionRequest, title: String)
        case undo(auditID: Int64)
        case editFilter(String)
        case close
    }

    /// Closes the view, back to the one below it.
    package mutating func close() {
        requests.append(.close)
    }

    /// Puts `text` in the status line.
    package mutating func report(_ text: String, isError: Bool = false) {
        requests.append(.report(text, isError: isError))
    }

    /// Opens `view` on top.
    package mutating func show(_ view: any ConsoleView) {
        requests.append(.show(view))
    }

    /// Measures an action (the confirmation opens when the preview arrives).
    package mutating func startAction(_ request: ActionRequest, title: String) {
        requests.append(.action(request, title: title))
    }

    /// Undoes the action with audit id `auditID`.
    package mutating func startUndo(_ auditID: Int64) {
        requests.append(.undo(auditID: auditID))
    }

    /// Opens the `/` field holding `text`.
    package mutating func editFilter(_ text: String) {
        requests.append(.editFilter(text))
    }

    /// How the first key bound to `action` is shown (`?`), for hints and messages.
    package func label(_ action: KeyAction) -> String {
        settings.keyMap.keys(for: action).first?.label ?? ":" + action.rawValue
    }

    /// The list rows a page key moves.
    package var pageRows: Int { max(1, ConsoleLayout.body(size).size.rows - 5) }

    /// The time, in milliseconds since the epoch.
    package var now: Int64 { model.now }
}
