import TerminalUI
import CacheCore
import CacheCoreRedis

/// One view of the console (the Overview, a namespace's entries, an entry, the timeline,
/// the statistics, the audit log, the help): its own state, its reads and everything it does.
/// The ``ConsoleController`` keeps the stack of views, the overlays and the effects; it hands
/// each view the keys its bindings name, the data it asked for, and the screen area to draw.
package protocol ConsoleView: Sendable {
    /// What the view reads (``NoRead`` for a view without data of its own).
    associatedtype Read: ConsoleRead = NoRead

    /// The view's name in the help.
    static var title: String { get }
    /// Every key the view answers besides the global ones, in hint order, each with what it
    /// does: the single source of its dispatch, its hints and its help.
    static var bindings: [KeyBinding<Self>] { get }
    /// The tab on the breadcrumb bar that shows a view of this kind (`nil`: none).
    static var tab: ViewTab? { get }
    /// The view its tab opens from the view in `context` (`nil`: the tab goes back to the
    /// bottom of the stack, where this view is).
    static func opened(from context: ViewContext) -> Self?

    /// Whether the view is one switched to from anywhere (timeline, statistics, audit):
    /// switching from one to another replaces it rather than stacking up.
    var isAuxiliary: Bool { get }
    /// The namespace the view is about, if it is about one.
    var subjectNamespace: String? { get }

    /// The view's part of the breadcrumbs (`nil` for none).
    func breadcrumb(in context: ViewContext) -> String?
    /// The hint line's entries now (by default those of ``bindings`` that have a hint).
    func hints(in context: ViewContext) -> [KeyHint]
    /// Takes `key` before the key map does (a menu waiting for its pick); `nil` leaves it to
    /// the key map.
    mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]?
    /// Whether the view answers `action` now (by default: whether ``bindings`` has it).
    func claims(_ action: KeyAction) -> Bool
    /// A click at `point` inside `area`, the view's part of the screen (mouse reporting on).
    mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect]
    /// What the view needs read: everything when it opens; for a refresh, its visible part.
    mutating func loads(in context: ViewContext, refreshing: Bool) -> [Read]
    /// Whether the view still wants `read`, one of its reads whose turn has come (by default
    /// yes; the Entries view no longer wants pages of an order or filter it left).
    func wants(_ read: Read) -> Bool
    /// Stores what `read` brought back.
    mutating func apply(_ output: Read.Output, for read: Read, in context: inout ViewContext) -> [ConsoleEffect]
    /// `read` failed (the console reports the error).
    mutating func loadFailed(_ read: Read)
    /// Freezes the order of the view's rows where they are now (`false`: lets them follow the
    /// sort again); a frozen view's refreshes update figures in place.
    mutating func freeze(_ frozen: Bool, in context: ViewContext)
    /// The terminal was resized to `size`.
    mutating func resized(to size: Size)
    /// Forgets highlights from before `cutoff` and changes from before `quietCutoff` (ms).
    mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64)
    /// Draws the view into `area`.
    func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions)
}

extension ConsoleView {
    package static var tab: ViewTab? { nil }
    package static func opened(from context: ViewContext) -> Self? { nil }
    package var isAuxiliary: Bool { false }
    package var subjectNamespace: String? { nil }

    package func hints(in context: ViewContext) -> [KeyHint] {
        Self.bindings.map(\.shown).filter { $0.hint != nil }
    }

    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? { nil }

    package func claims(_ action: KeyAction) -> Bool {
        Self.bindings.contains { $0.shown.action == action }
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [Read] { [] }
    package func wants(_ read: Read) -> Bool { true }
    package mutating func apply(_ output: Read.Output, for read: Read, in context: inout ViewContext)
        -> [ConsoleEffect]
    { [] }
    package mutating func loadFailed(_ read: Read) {}
    package mutating func freeze(_ frozen: Bool, in context: ViewContext) {}
    package mutating func resized(to size: Size) {}
    package mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64) {}

    /// Does what `action` (one of ``bindings``) means here.
    mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        guard let binding = Self.bindings.first(where: { $0.shown.action == action }) else { return [] }
        return binding.run(&self, &context)
    }

    /// Whether `self` and `other` show the same thing (re-opening it does nothing).
    func isSame(as other: any ConsoleView) -> Bool {
        type(of: self) == type(of: other) && subjectNamespace == other.subjectNamespace
    }

    /// The tab of this view's kind.
    var tab: ViewTab? { Self.tab }

    /// ``loads(in:refreshing:)`` tagged with the view's id.
    mutating func loadRequests(in context: ViewContext, refreshing: Bool) -> [LoadRequest] {
        loads(in: context, refreshing: refreshing).map { LoadRequest(viewID: context.viewID, read: $0) }
    }

    /// Whether the view still wants `request` (one of its own reads).
    func wantsRequest(_ request: LoadRequest) -> Bool {
        (request.read as? Read).map(wants) ?? true
    }

    /// Stores `data` when it is what one of the view's reads brings back (the Overview
    /// snapshot reaches every view; the Overview's read is that one).
    mutating func receive(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard let read = request.read as? Read, let output = data.value as? Read.Output else { return [] }
        return apply(output, for: read, in: &context)
    }

    /// `request` (one of the view's reads) failed.
    mutating func requestFailed(_ request: LoadRequest) {
        if let read = request.read as? Read { loadFailed(read) }
    }
}

/// A tab on the breadcrumb bar: the action that shows the view, its label and its help.
package struct ViewTab: Sendable {
    /// The action (`1`–`4`, `?`).
    package let action: KeyAction
    /// The label on the bar.
    package let label: String
    /// What the help says the key does.
    package let help: String
    /// Whether the tab shows on the breadcrumb bar (else only its key opens it).
    package var isOnBar = true
}

/// Every kind of view, in the order the help lists them: the one list the help, the tabs,
/// the global keys and the key map's actions come from.
enum ConsoleViews {
    /// The views of a cache file's console.
    static let all: [any ConsoleView.Type] = [
        OverviewView.self, EntriesView.self, DetailView.self, TimelineView.self, StatisticsView.self, AuditView.self,
        AuditDetailView.self, MessageLogView.self, HelpView.self,
    ]

    /// The views of a Redis server's nodes, for any console over Redis.
    static let redis: [any ConsoleView.Type] = [TopologyView.self, SlowLogView.self]

    /// The views of a Redis keyspace console (the audit log's where it deletes keys).
    static func keyspace(deletesKeys: Bool) -> [any ConsoleView.Type] {
        [KeyspaceView.self, RedisKeyView.self, BreakdownView.self] + redis
            + (deletesKeys ? [AuditView.self, AuditDetailView.self] : []) + [HelpView.self]
    }

    /// The tabs on the breadcrumb bar, in order.
    static let tabs: [ViewTab] = all.compactMap { $0.tab }.filter(\.isOnBar)

    /// Every action some view or the console binds, each once, in help order.
    static let actions: [KeyAction] = {
        var seen: Set<KeyAction> = []
        let bound =
            ConsoleController.globalBindings.map(\.shown.action)
            + (all + keyspace(deletesKeys: true)).flatMap { $0.bindingSummaries.map(\.action) }
        return bound.filter { seen.insert($0).inserted }
    }()
}

extension ConsoleView {
    /// What the help shows of ``bindings``.
    static var bindingSummaries: [KeyHint] { bindings.map(\.shown) }
}

/// What the hint line and the help show of a key binding: the action (whose keys the key
/// map holds), its label on the hint line, and what the help says it does.
package struct KeyHint: Sendable, Hashable {
    /// What the key does.
    package var action: KeyAction
    /// The label on the hint line (`nil`: only in the help).
    package var hint: String?
    /// What the help says it does.
    package var help: String
    /// Whether it changes the file (hidden and refused when read-only).
    package var isDestructive = false

    /// This entry with another label.
    func hinted(_ text: String?) -> KeyHint {
        var shown = self
        shown.hint = text
        return shown
    }
}

/// One key binding of a view of type `View`: what it shows and what it does. A new key is
/// one of these in the view's ``ConsoleView/bindings`` (with a ``KeyAction`` if no view binds
/// that action yet).
package struct KeyBinding<View: ConsoleView>: Sendable {
    /// What the hint line and the help show.
    package let shown: KeyHint
    /// What the key does to the view.
    let run: @Sendable (inout View, inout ViewContext) -> [ConsoleEffect]

    /// A binding of `action`.
    init(
        _ action: KeyAction, hint: String? = nil, help: String, destructive: Bool = false,
        run: @escaping @Sendable (inout View, inout ViewContext) -> [ConsoleEffect]
    ) {
        shown = KeyHint(action: action, hint: hint, help: help, isDestructive: destructive)
        self.run = run
    }

    /// The six keys that move through a list, each handing `move` its ``ListMove``.
    static func listMotion(
        _ move: @escaping @Sendable (inout View, ListMove, inout ViewContext) -> [ConsoleEffect]
    ) -> [KeyBinding] {
        ListMove.allCases.map { motion in
            KeyBinding(motion.action, help: motion.help) { view, context in move(&view, motion, &context) }
        }
    }
}

/// How the movement keys move a selection in a list.
enum ListMove: CaseIterable, Sendable {
    case up, down, pageUp, pageDown, top, bottom

    /// The action of the move.
    var action: KeyAction {
        switch self {
        case .up: .moveUp
        case .down: .moveDown
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .top: .top
        case .bottom: .bottom
        }
    }

    /// What the help says.
    var help: String {
        switch self {
        case .up: "Move up"
        case .down: "Move down"
        case .pageUp: "Page up"
        case .pageDown: "Page down"
        case .top: "First row"
        case .bottom: "Last row"
        }
    }

    /// The rows the move moves by a page of `page` rows (top and bottom move by a lot and
    /// are clamped).
    func delta(page: Int) -> Int {
        switch self {
        case .up: -1
        case .down: 1
        case .pageUp: -page
        case .pageDown: page
        case .top: Int.min / 2
        case .bottom: Int.max / 2
        }
    }

    /// `index` within a list of `count` rows.
    static func clamp(_ index: Int, count: Int) -> Int {
        max(0, min(index, count - 1))
    }
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
        case load([LoadRequest])
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

    /// Reads `reads` for this view now.
    package mutating func load(_ reads: [some ConsoleRead]) {
        guard !reads.isEmpty else { return }
        requests.append(.load(reads.map { LoadRequest(viewID: viewID, read: $0) }))
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
        settings.keyMap.keys(for: action).first?.label ?? ":" + action.name
    }

    /// The list rows a page key moves.
    package var pageRows: Int { max(1, ConsoleLayout.body(size).size.rows - 5) }

    /// The time, in milliseconds since the epoch.
    package var now: Int64 { model.now }
}
