import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// The console's controller: takes each ``ConsoleMessage`` (a key, a tick, data that
/// arrived), updates the ``ConsoleModel`` and answers with the ``ConsoleEffect``s to carry
/// out — reads and actions, which run elsewhere and come back as messages. It never waits for
/// data and never touches a terminal, so tests drive it key by key and check whole screens.
package struct ConsoleController: Sendable {
    /// The state, as the screens draw it.
    package internal(set) var model: ConsoleModel
    /// Key bindings, themes, refresh interval.
    package let settings: ConsoleSettings
    /// The terminal size the views lay out for.
    package internal(set) var size: Size
    /// Effects that views' requests produced, collected while a view is borrowed.
    private var pendingEffects: [ConsoleEffect] = []

    /// Informational messages leave the status line after this long (errors stay three times
    /// as long).
    static let messageLifetime: Int64 = 6_000
    /// Changed values stay highlighted this long.
    static let highlightLifetime: Int64 = 2_000
    /// A change is highlighted only after its value held still this long, so that figures a
    /// busy app changes all the time are not lit up for good.
    static let highlightQuietPeriod: Int64 = 10_000

    /// Whether a change at `now` of a value that last changed at `last` is highlighted.
    static func highlights(lastChange last: Int64?, now: Int64) -> Bool {
        last.map { now - $0 >= highlightQuietPeriod } ?? true
    }
    /// A refresh reloads at least this often even when the file did not change (relative
    /// times and expiries move on).
    static let forcedReloadInterval: Int64 = 30_000

    /// A controller for the file (or, when `isKeyspace`, the Redis database) at `location`,
    /// drawing with theme `themeName`, at `size`.
    package init(
        location: String, isReadOnly: Bool, isKeyspace: Bool = false, hasKeyspace: Bool = false, themeName: String,
        settings: ConsoleSettings, size: Size, now: Int64
    ) {
        model = ConsoleModel(
            location: location, isReadOnly: isReadOnly, isKeyspace: isKeyspace, hasKeyspace: hasKeyspace,
            themeName: themeName,
            refreshInterval: settings.refreshInterval, now: now)
        self.settings = settings
        self.size = size
    }

    /// The first effects: read the Overview. `notices` (a broken key or theme file) go to the
    /// status line as errors.
    package mutating func start(notices: [String] = []) -> [ConsoleEffect] {
        if !notices.isEmpty { report(notices.joined(separator: " · "), isError: true) }
        model.live.refreshing = true
        return [.refresh(loads: model.isKeyspace ? refreshLoads() : [.overview], force: true)]
    }

    /// Notes how long the last frame took, for the status line.
    package mutating func noteFrame(milliseconds: Double) {
        model.timings.renderMilliseconds = milliseconds
    }

    /// Handles one message.
    package mutating func handle(_ message: ConsoleMessage) -> [ConsoleEffect] {
        let quitsAfter = model.busy?.quitsAfter == true
        let effects = dispatch(message) + pendingEffects
        pendingEffects = []
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
            // An action that would change nothing is not worth a question (an import always writes).
            guard pending.impact.entries > 0 || pending.importing != nil else {
                report("\(ActionText.title(pending.target)): nothing to do (it selects no entries).")
                return []
            }
            model.overlay = .confirm(ConfirmDialog(pending: pending, answer: TextField()))
            return []
        case .progress(let progress):
            model.busy?.progress = progress
            return []
        case .ran(let result): return finished(result)
        case .compacting(let progress):
            if let total = progress.pagesToFree {
                model.busy?.progress = ActionProgress(done: progress.pagesFreed, total: total)
            }
            return []
        case .compacted(let outcome):
            model.busy = nil
            report(ActionText.compacted(outcome))
            return reload()
        case .exported(let count, let path):
            model.busy = nil
            report("Exported \(Formatting.count(count)) \(count == 1 ? "entry" : "entries") to \(path).")
            return []
        case .undone(let auditID, let outcome):
            model.busy = nil
            if model.lastUndo?.auditID == auditID { model.lastUndo = nil }
            report(outcome.sentence(auditID: auditID))
            return reload()
        case .failed(let error):
            model.busy = nil
            model.live.refreshing = false
            report(error.description, isError: true)
            return []
        case .notice(let text, let isError):
            report(text, isError: isError)
            return []
        }
    }

    // MARK: Time

    private mutating func tick(_ now: Int64) -> [ConsoleEffect] {
        model.now = now
        let cutoff = now - Self.highlightLifetime
        let quietCutoff = now - Self.highlightQuietPeriod
        for index in model.views.indices {
            model.views[index].view.prune(highlightsBefore: cutoff, changesBefore: quietCutoff)
        }
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

    /// The reads that bring the Overview and the current view up to date.
    mutating func refreshLoads() -> [LoadRequest] {
        (model.isKeyspace ? [] : [.overview])
            + withCurrentView { view, context in view.loadRequests(in: context, refreshing: true) }
    }

    /// Reloads now (after an action or undo, and on request).
    mutating func reload() -> [ConsoleEffect] {
        model.live.isStale = false
        return [.load(refreshLoads())]
    }

    /// Runs `body` on the view at `index` of the stack with its context, stores the view
    /// back, then carries out what it asked for.
    @discardableResult
    mutating func withView<Result>(
        at index: Int, _ body: (inout any ConsoleView, inout ViewContext) -> Result
    ) -> Result {
        var context = ViewContext(viewID: model.views[index].id, size: size, model: model, settings: settings)
        var view = model.views[index].view
        let result = body(&view, &context)
        model.views[index].view = view
        pendingEffects += perform(context.requests)
        return result
    }

    /// Runs `body` on the current view (see ``withView(at:_:)``).
    mutating func withCurrentView<Result>(_ body: (inout any ConsoleView, inout ViewContext) -> Result) -> Result {
        withView(at: model.views.count - 1, body)
    }

    /// Carries out what a view asked for.
    private mutating func perform(_ requests: [ViewContext.Request]) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        for request in requests {
            switch request {
            case .report(let text, let isError): report(text, isError: isError)
            case .show(let view): effects += show(view)
            case .load(let requests): effects.append(.load(requests))
            case .action(let request, let title): effects += startAction(request, title: title)
            case .undo(let auditID): effects += startUndo(auditID)
            case .close: effects += closeTop()
            case .editFilter(let text):
                model.overlay = .filter(InputLine(text))
                model.status = nil
            }
        }
        return effects
    }

    /// The current view's loads as an effect (more pages of a list, …).
    mutating func currentLoads() -> [ConsoleEffect] {
        let requests = withCurrentView { view, context in view.loadRequests(in: context, refreshing: false) }
        return requests.isEmpty ? [] : [.load(requests)]
    }

    private mutating func layoutChanged() -> [ConsoleEffect] {
        for index in model.views.indices { model.views[index].view.resized(to: size) }
        guard model.current.view is EntriesView else { return [] }
        return currentLoads()
    }

    // MARK: Results

    /// `effect`, a read whose turn has come, without the requests no view wants any more
    /// (pages of an order or filter since changed, reads for views since closed); `nil` when
    /// nothing of it is left to do. Other effects are returned as they are.
    package func stillWanted(_ effect: ConsoleEffect) -> ConsoleEffect? {
        func wanted(_ request: LoadRequest) -> Bool {
            guard let id = request.viewID else { return true }
            return model.views.first { $0.id == id }?.view.wantsRequest(request) ?? false
        }
        switch effect {
        case .load(let requests):
            let kept = requests.filter(wanted)
            return kept.isEmpty ? nil : .load(kept)
        case .refresh(let loads, let force):
            return .refresh(loads: loads.filter(wanted), force: force)
        default:
            return effect
        }
    }

    /// Stores what reads brought back in the views they were for; results for views that
    /// were closed, or for an order or filter since changed, are dropped.
    mutating func apply(_ results: [LoadResult]) -> [ConsoleEffect] {
        if !results.isEmpty {
            let total = results.reduce(Duration.zero) { $0 + $1.duration }
            model.timings.queryMilliseconds = total.fractionalMilliseconds
        }
        var effects: [ConsoleEffect] = []
        for result in results {
            switch result.outcome {
            case .success(let data):
                let indices =
                    result.request.viewID.map { id in model.views.indices.filter { model.views[$0].id == id } }
                    ?? Array(model.views.indices)
                for index in indices {
                    effects += withView(at: index) { view, context in
                        view.receive(data, for: result.request, in: &context)
                    }
                }
                if let snapshot = data.value as? OverviewSnapshot {
                    model.overview = snapshot
                    if let redis = snapshot.redis { model.server = redis.server }
                }
                if let snapshot = data.value as? KeyspaceSnapshot { model.server = snapshot.server }
                if let handoff = data.value as? ValueHandoff { effects.append(.handOff(handoff)) }
            case .failure(let error):
                if let id = result.request.viewID, let index = model.views.firstIndex(where: { $0.id == id }) {
                    model.views[index].view.requestFailed(result.request)
                }
                report(error.description, isError: true)
            }
        }
        return effects
    }

    // MARK: Messages

    /// Puts `text` in the status line.
    mutating func report(_ text: String, isError: Bool = false) {
        let message = StatusMessage(text: text, isError: isError, since: model.now)
        model.status = message
        model.messages.append(message)
        if model.messages.count > ConsoleModel.messageLogLimit { model.messages.removeFirst() }
    }

    private mutating func finished(_ result: ActionResult?) -> [ConsoleEffect] {
        model.busy = nil
        guard let result else {
            report("Cancelled; nothing was changed.")
            return []
        }
        let done = ActionText.done(result)
        var text =
            (result.outcome.isCancelled ? "Stopped. " : "") + ActionText.title(result.target, keys: result.outcome.removed)
            + ": "
            + done.prefix(1).lowercased() + done.dropFirst()
        if let undo = result.undo {
            model.lastUndo = undo
            text += settings.keyMap.keys(for: .undo).first.map { " \($0.label) undoes it." } ?? " :undo undoes it."
        }
        report(text)
        for index in model.views.indices {
            model.views[index].entries?.marks = [:]
            model.views[index].entries?.marksAllMatching = false
        }
        return reload()
    }
}
