import CacheCoreRedis
import TerminalUI
extension ConsoleController {
    /// The bindings that mean the same in every view (a view that binds the same action
    /// itself, like undo in the audit log, takes it first).
    static let globalBindings: [KeyBinding] = [
        KeyBinding(.help, help: "Help (again: close it)"),
        KeyBinding(.command, help: "Command line"),
        KeyBinding(.back, help: "Back / close"),
        KeyBinding(.previousView, help: "Previous view"),
        KeyBinding(.showOverview, help: "Overview"),
        KeyBinding(.showTimeline, help: "Expiry timeline (of the namespace in view)"),
        KeyBinding(.showStatistics, help: "Statistics (of the namespace in view)"),
        KeyBinding(.showAudit, help: "Audit log"),
        KeyBinding(.pause, help: "Pause / resume live updates"),
        KeyBinding(.refreshFaster, help: "Refresh faster"),
        KeyBinding(.refreshSlower, help: "Refresh slower"),
        KeyBinding(.undo, help: "Undo the last action", destructive: true),
        KeyBinding(.toggleMouse, help: "Mouse on / off"),
        KeyBinding(.redraw, help: "Redraw the screen"),
        KeyBinding(.quit, help: "Quit (closes the help first)"),
    ]

    /// The global actions a Redis keyspace console has no use for.
    static let fileOnlyActions: Set<KeyAction> = [.showTimeline, .showStatistics, .showAudit, .undo]

    /// A key: to the overlay when one is open, else to a view that waits for it, else
    /// through the key map to the view (when it binds the action) or to the console.
    mutating func handle(_ key: Key) -> [ConsoleEffect] {
        guard ConsoleLayout.fits(size) else {
            // Only the notice is on screen: nothing else may act unseen.
            return settings.keyMap.action(for: key) == .quit ? quit() : []
        }
        if model.overlay != nil { return overlayKey(key) }
        if key == .escape, let stop = model.busy?.stop, !stop.isStopped {
            stop.stop()
            report("Stopping after the current batch; what was removed so far can be undone.")
            return []
        }
        if let effects = withCurrentView({ view, context in view.intercept(key, in: &context) }) { return effects }
        guard let action = settings.keyMap.action(for: key) else { return [] }
        return perform(action)
    }

    /// Does what `action` means in the current view.
    mutating func perform(_ action: KeyAction) -> [ConsoleEffect] {
        if model.current.view.claims(action) {
            return withCurrentView { view, context in view.handle(action, in: &context) }
        }
        return globalAction(action)
    }

    /// A mouse event: clicks select rows, tabs and panels; the wheel scrolls the list in view.
    mutating func handle(_ mouse: MouseEvent) -> [ConsoleEffect] {
        guard model.overlay == nil, ConsoleLayout.fits(size) else { return [] }
        switch mouse.kind {
        case .scrollUp: return (0..<3).flatMap { _ in perform(.moveUp) }
        case .scrollDown: return (0..<3).flatMap { _ in perform(.moveDown) }
        case .press(.left): return click(at: mouse.position)
        case .doubleClick(.left): return click(at: mouse.position) + click(at: mouse.position)
        case .press, .release, .doubleClick: return []
        }
    }

    private mutating func click(at point: Point) -> [ConsoleEffect] {
        if point.row == 1, let tab = tab(at: point.column) { return perform(tab) }
        let body = ConsoleLayout.body(size)
        guard body.contains(point) else { return [] }
        return withCurrentView { view, context in view.click(at: point, in: body, context: &context) }
    }

    /// The actions that do what anywhere (`nil`: nothing).
    private mutating func globalAction(_ action: KeyAction) -> [ConsoleEffect] {
        if model.isKeyspace && Self.fileOnlyActions.contains(action) {
            report("\(label(action)) is for cache files; a Redis keyspace offers the tree, keys and help.")
            return []
        }
        switch action {
        case .quit:
            // `q` closes the help before it quits, like Esc.
            return model.current.isHelp ? closeTop() : quit()
        case .help:
            return model.current.isHelp ? closeTop() : show(HelpView())
        case .command:
            model.overlay = .command(InputLine(), completions: [])
            return []
        case .pause:
            if model.live.pausedAt == nil {
                model.live.pausedAt = model.now
                report("Paused; \(label(.pause)) resumes.")
                return []
            }
            model.live.pausedAt = nil
            report("Live again.")
            return reload()
        case .refreshFaster, .refreshSlower:
            let steps = LiveState.steps
            let index = steps.lastIndex { $0 <= model.live.interval } ?? 0
            let next = action == .refreshFaster ? max(0, index - 1) : min(steps.count - 1, index + 1)
            model.live.interval = steps[next]
            report("Refreshing every \(TimeText.interval(steps[next])).")
            return []
        case .previousView:
            guard let previous = model.previousViews else {
                report("No previous view yet.")
                return []
            }
            model.previousViews = model.views
            model.views = previous
            return reload()
        case .back: return closeTop()
        case .showOverview:
            guard model.views.count > 1 else { return [] }
            navigate { $0.removeSubrange(1...) }
            return reload()
        case .showTimeline: return show(TimelineView(namespace: model.current.view.subjectNamespace))
        case .showStatistics:
            return show(StatisticsView(namespace: model.current.view.subjectNamespace, among: model.namespaceNames))
        case .showAudit: return show(AuditView())
        case .undo:
            guard let undo = model.lastUndo else {
                report("Nothing to undo in this session (the audit log, \(label(.showAudit)), undoes older actions).")
                return []
            }
            return startUndo(undo.auditID)
        case .toggleMouse: return toggleMouse()
        case .redraw: return [.redrawAll]
        default:
            if (ConsoleViews.all + ConsoleViews.keyspace).contains(where: {
                $0.bindings.contains { $0.action == action }
            }) {
                report("\(label(action)) does nothing here (\(label(.help)) lists what each view offers).")
            }
            return []
        }
    }

    /// Turns mouse reporting on or off.
    mutating func toggleMouse() -> [ConsoleEffect] {
        model.mouseReporting.toggle()
        report(
            model.mouseReporting
                ? "Mouse on: click selects rows, tabs and panels; the wheel scrolls (\(label(.toggleMouse)) turns it off)."
                : "Mouse off.")
        return [.setMouseReporting(model.mouseReporting)]
    }

    /// Quits, or, while an action writes, quits as soon as it finishes (leaving mid-way would
    /// cut it off between two batches).
    mutating func quit() -> [ConsoleEffect] {
        guard model.busy?.isWriting == true else { return [.quit] }
        model.busy?.quitsAfter = true
        return []
    }

    /// Changes the stack, remembering the old one for "previous view".
    mutating func navigate(_ change: (inout [NavigationEntry]) -> Void) {
        let before = model.views
        change(&model.views)
        model.previousViews = before
    }

    /// Closes the view on top, back to the one below it.
    mutating func closeTop() -> [ConsoleEffect] {
        guard model.views.count > 1 else { return [] }
        navigate { $0.removeLast() }
        return reload()
    }

    /// Opens `view` on top; an auxiliary view (timeline, statistics, audit) replaces one that
    /// is already on top, and re-opening the same thing does nothing. The help stacks on top
    /// of any view (closing it returns there) and gives way to whatever opens next.
    mutating func show(_ view: any ConsoleView) -> [ConsoleEffect] {
        if model.current.view.isAuxiliary && model.current.view.isSame(as: view) { return [] }
        let entry = model.makeEntry(view)
        navigate { stack in
            if stack.count > 1 && stack[stack.count - 1].isHelp { stack.removeLast() }
            if stack.count > 1 && stack[stack.count - 1].view.isAuxiliary && view.isAuxiliary { stack.removeLast() }
            stack.append(entry)
        }
        return currentLoads()
    }

    /// How the first key bound to `action` is shown (`?`), for hints.
    func label(_ action: KeyAction) -> String {
        settings.keyMap.keys(for: action).first?.label ?? ":" + action.rawValue
    }
}
