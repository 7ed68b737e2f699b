import CacheCoreRedis
import TerminalUI
/// A key binding that means the same in every view, with what it does to the console.
struct GlobalBinding: Sendable {
    /// What the hint line and the help show.
    let shown: KeyHint
    /// What the key does.
    let run: @Sendable (inout ConsoleController) -> [ConsoleEffect]

    /// A binding of `action`.
    init(
        _ action: KeyAction, help: String, destructive: Bool = false,
        run: @escaping @Sendable (inout ConsoleController) -> [ConsoleEffect]
    ) {
        shown = KeyHint(action: action, hint: nil, help: help, isDestructive: destructive)
        self.run = run
    }
}

extension ConsoleController {
    /// The bindings that mean the same in every view (a view that binds the same action
    /// itself, like undo in the audit log, takes it first); the tabs come from the views.
    static let globalBindings: [GlobalBinding] =
        tabBindings.filter { $0.shown.action == .help }
        + [
            GlobalBinding(.command, help: "Command line") { controller in
                controller.model.overlay = .command(InputLine(), completions: [])
                return []
            },
            GlobalBinding(.back, help: "Back / close") { $0.closeTop() },
            GlobalBinding(.previousView, help: "Previous view") { $0.previousView() },
        ]
        + tabBindings.filter { $0.shown.action != .help }
        + [
            GlobalBinding(.pause, help: "Pause / resume live updates") { $0.togglePause() },
            GlobalBinding(.freezeOrder, help: "Freeze / unfreeze the order: rows stay put, figures still update") {
                $0.toggleFreeze()
            },
            GlobalBinding(.refreshFaster, help: "Refresh faster") { $0.changeRefresh(faster: true) },
            GlobalBinding(.refreshSlower, help: "Refresh slower") { $0.changeRefresh(faster: false) },
            GlobalBinding(.undo, help: "Undo the last action", destructive: true) { $0.undoLast() },
            GlobalBinding(.toggleMouse, help: "Mouse on / off") { $0.toggleMouse() },
            GlobalBinding(.redraw, help: "Redraw the screen") { _ in [.redrawAll] },
            // `q` closes the help before it quits, like Esc.
            GlobalBinding(.quit, help: "Quit (closes the help first)") { $0.model.current.isHelp ? $0.closeTop() : $0.quit() },
        ]

    /// The keys of the tabs, from the views (the help's first in the help).
    private static let tabBindings: [GlobalBinding] = (ConsoleViews.all + ConsoleViews.redis).compactMap { kind in
        kind.tab.map { tab in GlobalBinding(tab.action, help: tab.help) { $0.openTab(kind) } }
    }

    /// The global actions a Redis keyspace console has no use for.
    static let fileOnlyActions: Set<KeyAction> = [.showTimeline, .showStatistics, .showAudit, .undo]

    /// Whether a Redis keyspace console lacks global `action`: the audit log and undo serve
    /// one that deletes keys (not read-only).
    static func keyspaceLacks(_ action: KeyAction, isReadOnly: Bool) -> Bool {
        fileOnlyActions.contains(action) && (isReadOnly || (action != .showAudit && action != .undo))
    }

    /// The global actions only a console over Redis has.
    static let redisOnlyActions: Set<KeyAction> = Set(ConsoleViews.redis.compactMap { $0.tab?.action })

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
        if let reason = model.unsupported[action] {
            report(reason)
            return []
        }
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

    /// The action of a global binding, or word that the key does nothing here.
    private mutating func globalAction(_ action: KeyAction) -> [ConsoleEffect] {
        if model.isKeyspace && Self.keyspaceLacks(action, isReadOnly: model.isReadOnly) {
            report("\(label(action)) is for cache files; a Redis keyspace offers the tree, keys and help.")
            return []
        }
        if !model.hasKeyspace && Self.redisOnlyActions.contains(action) {
            report("\(label(action)) is for Redis; this console shows a cache file.")
            return []
        }
        if let binding = Self.globalBindings.first(where: { $0.shown.action == action }) { return binding.run(&self) }
        report("\(label(action)) does nothing here (\(label(.help)) lists what each view offers).")
        return []
    }

    /// Shows the view of `kind`'s tab: a new one when the kind opens one from here, else the
    /// bottom of the stack (the Overview) or, when that kind is on top, the view below it.
    private mutating func openTab(_ kind: any ConsoleView.Type) -> [ConsoleEffect] {
        let opened = withCurrentView { _, context in kind.opened(from: context) as (any ConsoleView)? }
        if let opened { return show(opened) }
        if model.views.count > 1 && type(of: model.current.view) == kind { return closeTop() }
        guard model.views.count > 1 else { return [] }
        navigate { $0.removeSubrange(1...) }
        return reload()
    }

    private mutating func previousView() -> [ConsoleEffect] {
        guard let previous = model.previousViews else {
            report("No previous view yet.")
            return []
        }
        model.previousViews = model.views
        model.views = previous
        return reload()
    }

    private mutating func togglePause() -> [ConsoleEffect] {
        if model.live.pausedAt == nil {
            model.live.pausedAt = model.now
            report("Paused; \(label(.pause)) resumes.")
            return []
        }
        model.live.pausedAt = nil
        report("Live again.")
        return reload()
    }

    /// Freezes the order of every view's rows where they are now, or lets them move again.
    private mutating func toggleFreeze() -> [ConsoleEffect] {
        model.live.isFrozen.toggle()
        let frozen = model.live.isFrozen
        for index in model.views.indices {
            withView(at: index) { view, context in view.freeze(frozen, in: context) }
        }
        report(
            frozen
                ? "Order frozen: rows stay where they are while their figures update (\(label(.freezeOrder)) lets them move)."
                : "Order live again: rows follow the sort.")
        return frozen ? [] : reload()
    }

    private mutating func changeRefresh(faster: Bool) -> [ConsoleEffect] {
        let steps = LiveState.steps
        let index = steps.lastIndex { $0 <= model.live.interval } ?? 0
        let next = faster ? max(0, index - 1) : min(steps.count - 1, index + 1)
        model.live.interval = steps[next]
        report("Refreshing every \(TimeText.interval(steps[next])).")
        return []
    }

    private mutating func undoLast() -> [ConsoleEffect] {
        guard let undo = model.lastUndo else {
            report("Nothing to undo in this session (the audit log, \(label(.showAudit)), undoes older actions).")
            return []
        }
        return startUndo(undo.auditID)
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
        var view = view
        if model.live.isFrozen {
            view.freeze(true, in: ViewContext(viewID: model.nextViewID, size: size, model: model, settings: settings))
        }
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
        settings.keyMap.keys(for: action).first?.label ?? ":" + action.name
    }
}
