extension ConsoleController {
    /// A key: to the overlay when one is open, else through the key map to the console and
    /// then to the view.
    mutating func handle(_ key: Key) -> [ConsoleEffect] {
        guard ConsoleLayout.fits(size) else {
            // Only the notice is on screen: nothing else may act unseen.
            return settings.keyMap.action(for: key) == .quit ? quit() : []
        }
        if model.overlay != nil { return overlayKey(key) }
        guard let action = settings.keyMap.action(for: key) else { return [] }
        if case .statistics = model.current.content, action == .cycleWindow { return cycleWindow() }
        if let effects = globalAction(action) { return effects }
        switch model.current.content {
        case .overview: return overviewAction(action)
        case .entries: return entriesAction(action)
        case .detail: return detailAction(action)
        case .timeline: return timelineAction(action)
        case .statistics: return statisticsAction(action)
        case .audit: return auditAction(action)
        case .help: return helpAction(action)
        }
    }

    /// The wheel scrolls the list in view; clicks are not used.
    mutating func handle(_ mouse: MouseEvent) -> [ConsoleEffect] {
        guard model.overlay == nil, ConsoleLayout.fits(size) else { return [] }
        switch mouse.kind {
        case .scrollUp: return (0..<3).flatMap { _ in handle(settings.keyMap.keys(for: .moveUp).first ?? .up) }
        case .scrollDown: return (0..<3).flatMap { _ in handle(settings.keyMap.keys(for: .moveDown).first ?? .down) }
        case .press, .release: return []
        }
    }

    /// Actions that mean the same in every view; `nil` for the view's own.
    private mutating func globalAction(_ action: KeyAction) -> [ConsoleEffect]? {
        switch action {
        case .quit:
            // `q` closes the help before it quits, like Esc.
            guard model.current.content.help == nil else { return closeTop() }
            return quit()
        case .help:
            guard model.current.content.help == nil else { return closeTop() }
            return show(.help(HelpView()))
        case .command:
            model.overlay = .command(TextField(), completions: [])
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
        case .back:
            guard model.views.count > 1 else { return [] }
            if case .entries(let view) = model.current.content, !view.marks.isEmpty || view.marksAllMatching {
                return nil
            }
            return closeTop()
        case .showOverview:
            guard model.views.count > 1 else { return [] }
            navigate { $0.removeSubrange(1...) }
            return reload()
        case .showTimeline: return show(.timeline(TimelineView(namespace: model.current.content.namespace)))
        case .showStatistics: return show(.statistics(statisticsView()))
        case .showAudit: return show(.audit(AuditView()))
        case .undo:
            if case .audit = model.current.content { return nil }
            guard let undo = model.lastUndo else {
                report("Nothing to undo in this session (the audit log, \(label(.showAudit)), undoes older actions).")
                return []
            }
            return startUndo(undo.auditID)
        case .toggleMouse:
            model.mouseReporting.toggle()
            report("Mouse \(model.mouseReporting ? "on: the wheel scrolls" : "off").")
            return [.setMouseReporting(model.mouseReporting)]
        case .redraw: return [.redrawAll]
        default: return nil
        }
    }

    /// Quits, or, while an action writes, quits as soon as it finishes (leaving mid-way would
    /// cut it off between two batches).
    mutating func quit() -> [ConsoleEffect] {
        guard model.busy?.isWriting == true else { return [.quit] }
        model.busy?.quitsAfter = true
        return []
    }

    /// Changes the stack, remembering the old one for "previous view".
    mutating func navigate(_ change: (inout [View]) -> Void) {
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

    /// Opens `content` on top; an auxiliary view (timeline, statistics, audit) replaces one
    /// that is already on top, and re-opening the same kind does nothing. The help stacks on
    /// top of any view (closing it returns there) and gives way to whatever opens next.
    mutating func show(_ content: View.Content) -> [ConsoleEffect] {
        if model.current.content.isAuxiliary && sameKind(model.current.content, content) { return [] }
        let view = model.makeView(content)
        navigate { stack in
            if stack.count > 1 && stack[stack.count - 1].content.help != nil { stack.removeLast() }
            if stack.count > 1 && stack[stack.count - 1].content.isAuxiliary && content.isAuxiliary
                && content.help == nil
            {
                stack.removeLast()
            }
            stack.append(view)
        }
        let requests = loads(for: model.current, refreshing: false)
        return requests.isEmpty ? [] : [.load(requests)]
    }

    private func sameKind(_ first: View.Content, _ second: View.Content) -> Bool {
        switch (first, second) {
        case (.timeline(let a), .timeline(let b)): a.namespace == b.namespace
        case (.statistics, .statistics), (.audit, .audit), (.help, .help): true
        default: false
        }
    }

    /// How the first key bound to `action` is shown (`?`), for hints.
    func label(_ action: KeyAction) -> String {
        settings.keyMap.keys(for: action).first?.label ?? ":" + action.rawValue
    }

    /// The list rows a page key moves.
    var pageRows: Int { max(1, ConsoleLayout.body(size).size.rows - 5) }
}
