import TerminalUI
/// The audit log.
package struct AuditView: ConsoleView {
    /// The rows as last read, newest first.
    package internal(set) var entries: [AuditEntry]?
    /// The selected row.
    package internal(set) var selection = 0 {
        didSet { selectedID = selected?.id }
    }
    /// The selected action's id, so the selection stays on it when newer actions (an undo's
    /// restore) push rows down.
    private var selectedID: Int64?
    /// The action ids in the order frozen (``KeyAction/freezeOrder``): rows keep their places
    /// while their figures update, and actions that appear later go last. `nil`: newest first.
    package internal(set) var frozenOrder: [Int64]?

    package static let title = "Audit log"

    package static let bindings: [KeyBinding<AuditView>] =
        [
            KeyBinding(.drillIn, hint: "details", help: "Show the selected action in full") { view, context in
                if let entry = view.selected { context.show(AuditDetailView(entry: entry)) }
                return []
            },
            KeyBinding(.undo, hint: "undo", help: "Undo the selected action", destructive: true) { view, context in
                if let entry = view.selected { undo(entry, context: &context) }
                return []
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.selection = ListMove.clamp(view.selection + move.delta(page: context.pageRows), count: view.entries?.count ?? 0)
            return []
        }

    package static let tab: ViewTab? = ViewTab(action: .showAudit, label: "Audit", help: "Audit log")

    package static func opened(from context: ViewContext) -> AuditView? { AuditView() }
    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? { "audit log" }

    /// The selected row, if any.
    var selected: AuditEntry? {
        entries.flatMap { $0.indices.contains(selection) ? $0[selection] : nil }
    }

    /// Undoes `entry`, or says why it cannot be.
    static func undo(_ entry: AuditEntry, context: inout ViewContext) {
        guard entry.canUndo else {
            context.report(
                entry.isUndone
                    ? "Action #\(entry.id) was already undone."
                    : "Action #\(entry.id) kept nothing to restore (sweeps and restores cannot be undone).",
                isError: true)
            return
        }
        context.startUndo(entry.id)
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        let inner = area.insetBy(1)
        guard let entries, inner.contains(point), point.row > inner.minRow else { return [] }
        let height = inner.size.rows - 1
        let index = max(0, selection - height + 1) + point.row - inner.minRow - 1
        guard entries.indices.contains(index) else { return [] }
        if index == selection { return handle(.drillIn, in: &context) }
        selection = index
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [AuditRead] { [AuditRead()] }

    package mutating func apply(_ rows: [AuditEntry], for read: AuditRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        var rows = rows
        if let frozen = frozenOrder {
            let known = Set(frozen)
            frozenOrder = frozen + rows.map(\.id).filter { !known.contains($0) }
            let place = Dictionary((frozenOrder ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            rows.sort { place[$0.id, default: .max] < place[$1.id, default: .max] }
        }
        let followed = selectedID.flatMap { id in rows.firstIndex { $0.id == id } }
        entries = rows
        selection = followed ?? min(selection, max(0, rows.count - 1))
        return []
    }

    package mutating func freeze(_ frozen: Bool, in context: ViewContext) {
        frozenOrder = frozen ? entries?.map(\.id) ?? [] : nil
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        AuditScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// One action of the audit log in full: who ran it where, what it targeted, what it removed,
/// whether it can still be undone (and undoing it from here).
package struct AuditDetailView: ConsoleView {
    /// The action as last read.
    package internal(set) var entry: AuditEntry

    package static let title = "Audit detail"

    package static let bindings: [KeyBinding<AuditDetailView>] = [
        KeyBinding(.undo, hint: "undo", help: "Undo this action", destructive: true) { view, context in
            AuditView.undo(view.entry, context: &context)
            return []
        }
    ]

    package func breadcrumb(in context: ViewContext) -> String? { "action #\(entry.id)" }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [AuditRead] { [AuditRead()] }

    package mutating func apply(_ rows: [AuditEntry], for read: AuditRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        if let fresh = rows.first(where: { $0.id == entry.id }) { entry = fresh }
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        AuditScreen.drawDetail(
            entry, now: context.now, undoKey: context.label(.undo), in: area, into: &buffer,
            options: options)
    }
}

/// The audit log, newest first (its latest 200 actions).
package struct AuditRead: ConsoleRead {
    package func run(on source: any ConsoleDataSource) throws -> [AuditEntry] { try source.auditLog(limit: 200) }
}
