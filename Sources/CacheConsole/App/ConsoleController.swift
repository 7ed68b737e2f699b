import CacheCore

/// The console's controller: takes each ``ConsoleMessage`` (a key, a tick, data that
/// arrived), updates the ``ConsoleModel`` and answers with the ``ConsoleEffect``s to carry
/// out — reads and actions, which run elsewhere and come back as messages. It never waits for
/// data and never touches a terminal, so tests drive it key by key and check whole screens.
public struct ConsoleController: Sendable {
    /// The state, as the screens draw it.
    public internal(set) var model: ConsoleModel
    /// Key bindings, themes, refresh interval.
    public let settings: ConsoleSettings
    /// The terminal size the views lay out for.
    public internal(set) var size: Size

    /// Informational messages leave the status line after this long (errors stay three times
    /// as long).
    static let messageLifetime: Int64 = 6_000
    /// Changed values stay highlighted this long.
    static let highlightLifetime: Int64 = 2_000
    /// A refresh reloads at least this often even when the file did not change (relative
    /// times and expiries move on).
    static let forcedReloadInterval: Int64 = 30_000

    /// A controller for the file at `location`, drawing with theme `themeName`, at `size`.
    public init(
        location: String, isReadOnly: Bool, themeName: String, settings: ConsoleSettings, size: Size, now: Int64
    ) {
        model = ConsoleModel(
            location: location, isReadOnly: isReadOnly, themeName: themeName,
            refreshInterval: settings.refreshInterval, now: now)
        self.settings = settings
        self.size = size
    }

    /// The first effects: read the Overview. `notices` (a broken key or theme file) go to the
    /// status line as errors.
    public mutating func start(notices: [String] = []) -> [ConsoleEffect] {
        if !notices.isEmpty { report(notices.joined(separator: " · "), isError: true) }
        model.live.refreshing = true
        return [.refresh(loads: [.overview], force: true)]
    }

    /// Notes how long the last frame took, for the status line.
    public mutating func noteFrame(milliseconds: Double) {
        model.timings.renderMilliseconds = milliseconds
    }

    /// Handles one message.
    public mutating func handle(_ message: ConsoleMessage) -> [ConsoleEffect] {
        let quitsAfter = model.busy?.quitsAfter == true
        let effects = dispatch(message)
        return quitsAfter && model.busy == nil ? [.quit] : effects
    }

    private mutating func dispatch(_ message: ConsoleMessage) -> [ConsoleEffect] {
        switch message {
        case .input(.key(let key)): return handle(key)
        case .input(.mouse(let mouse)): return handle(mouse)
        case .input(.resize(let newSize)):
            size = newSize
            return layoutChanged()
        case .tick(let now): return tick(now)
        case .loaded(let results): return apply(results)
        case .refreshed(let changed, let results):
            model.live.refreshing = false
            guard !results.isEmpty else {
                if changed { model.live.isStale = true }
                return []
            }
            model.live.isStale = false
            model.live.loadedAt = model.now
            return apply(results)
        case .prepared(let pending):
            model.busy = nil
            model.overlay = .confirm(ConfirmDialog(pending: pending, answer: TextField()))
            return []
        case .ran(let result): return finished(result)
        case .undone(let auditID, let restored):
            model.busy = nil
            if model.lastUndo?.auditID == auditID { model.lastUndo = nil }
            report(
                "Restored \(Formatting.count(restored)) \(restored == 1 ? "entry" : "entries") (action #\(auditID)).")
            return reload()
        case .failed(let error):
            model.busy = nil
            model.live.refreshing = false
            report(error.description, isError: true)
            return []
        }
    }

    // MARK: Time

    private mutating func tick(_ now: Int64) -> [ConsoleEffect] {
        model.now = now
        pruneHighlights()
        guard model.live.pausedAt == nil, !model.live.refreshing else { return [] }
        let interval = model.live.interval.milliseconds
        let sinceLoad = model.live.loadedAt.map { now - $0 } ?? .max
        let due = sinceLoad >= interval
        model.live.refreshing = true
        return [
            .refresh(
                loads: due ? refreshLoads() : [],
                force: due && (model.live.isStale || sinceLoad >= Self.forcedReloadInterval))
        ]
    }

    private mutating func pruneHighlights() {
        let cutoff = model.now - Self.highlightLifetime
        for index in model.views.indices {
            if var overview = model.views[index].content.overview {
                overview.changedAt = overview.changedAt.filter { $0.value > cutoff }
                model.views[index].content.overview = overview
            }
            if var entries = model.views[index].content.entries {
                entries.changedAt = entries.changedAt.filter { $0.value.at > cutoff }
                model.views[index].content.entries = entries
            }
        }
    }

    /// The reads that bring the Overview and the current view up to date.
    mutating func refreshLoads() -> [LoadRequest] {
        [.overview] + loads(for: model.current, refreshing: true)
    }

    /// Reloads now (after an action or undo, and on request).
    mutating func reload() -> [ConsoleEffect] {
        model.live.isStale = false
        return [.load(refreshLoads())]
    }

    /// What a view needs read: everything when it opens; for a refresh, its visible part.
    mutating func loads(for view: View, refreshing: Bool) -> [LoadRequest] {
        switch view.content {
        case .overview, .help: return []
        case .entries(var entries):
            if refreshing && entries.window.hasLoaded {
                let (page, limit) = entries.window.refreshRange(height: EntriesScreen.listHeight(for: size))
                return [
                    .entries(
                        view: view.id, generation: entries.generation, page: page, replacing: true,
                        entries.request(page: page, limit: limit))
                ]
            }
            let pages = entries.window.pagesToLoad(height: EntriesScreen.listHeight(for: size))
            entries.window.loading.formUnion(pages)
            setEntries(entries, in: view.id)
            return pages.map { page in
                .entries(
                    view: view.id, generation: entries.generation, page: page, replacing: false,
                    entries.request(page: page))
            }
        case .detail(let detail): return [.detail(view: view.id, id: detail.entryID, hex: detail.hex)]
        case .timeline(let timeline): return [.timeline(view: view.id, namespace: timeline.namespace)]
        case .statistics(let statistics): return [.statistics(view: view.id, window: statistics.window)]
        case .audit: return [.audit(view: view.id)]
        }
    }

    private mutating func setEntries(_ entries: EntriesView, in viewID: Int) {
        guard let index = model.views.firstIndex(where: { $0.id == viewID }) else { return }
        model.views[index].content.entries = entries
    }

    /// The current Entries view's further pages, if it needs any.
    mutating func entriesPageLoads() -> [ConsoleEffect] {
        guard case .entries = model.current.content else { return [] }
        let requests = loads(for: model.current, refreshing: false)
        return requests.isEmpty ? [] : [.load(requests)]
    }

    private mutating func layoutChanged() -> [ConsoleEffect] {
        let height = EntriesScreen.listHeight(for: size)
        for index in model.views.indices { model.views[index].content.entries?.window.clampTop(height: height) }
        // A detail view further down the stack wraps again when it is back on top and reloads.
        model.current.content.detail?.wrapValue(width: size.columns)
        return entriesPageLoads()
    }

    // MARK: Messages

    /// Puts `text` in the status line.
    mutating func report(_ text: String, isError: Bool = false) {
        model.status = StatusMessage(text: text, isError: isError, since: model.now)
    }

    private mutating func finished(_ result: ActionResult?) -> [ConsoleEffect] {
        model.busy = nil
        guard let result else {
            report("Cancelled; nothing was changed.")
            return []
        }
        let removed = result.outcome.removed
        var text =
            ActionText.title(result.target) + ": removed \(Formatting.count(removed)) "
            + "\(removed == 1 ? "entry" : "entries") (\(Formatting.bytes(result.outcome.bytes)))."
        if let undo = result.undo {
            model.lastUndo = undo
            text += settings.keyMap.keys(for: .undo).first.map { " \($0.label) undoes it." } ?? " :undo undoes it."
        }
        report(text)
        for index in model.views.indices {
            model.views[index].content.entries?.marks = [:]
            model.views[index].content.entries?.marksAllMatching = false
        }
        return reload()
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedClamped(by: 1000).addingClamped(attoseconds / 1_000_000_000_000_000)
    }

    /// Milliseconds with their fraction.
    var fractionalMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
