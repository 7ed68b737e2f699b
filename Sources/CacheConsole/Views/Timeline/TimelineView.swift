import TerminalUI
import CacheCore

/// The expiry timeline of a namespace or of the store, with a cursor on a range or an hour:
/// `Enter` opens the entries it counts, as ncdu and k9s drill down.
package struct TimelineView: ConsoleView {
    /// The panels Tab moves between.
    package enum Pane: Sendable, Hashable {
        /// The expiry ranges.
        case ranges
        /// The next 48 hours.
        case hours
    }

    /// The namespace, or `nil` for the store.
    package let namespace: String?
    /// The timeline as last read.
    package internal(set) var snapshot: TimelineSnapshot?
    /// The panel with the cursor.
    package internal(set) var pane = Pane.ranges
    /// The selected range (a row of the table).
    package internal(set) var range = 0
    /// The selected hour (0: the coming one).
    package internal(set) var hour = 0

    /// The timeline of `namespace` (`nil`: the store).
    init(namespace: String?) {
        self.namespace = namespace
    }

    package static let title = "Timeline"

    package static let bindings: [KeyBinding<TimelineView>] =
        [
            KeyBinding(.drillIn, hint: "entries", help: "Open the entries of the selected range or hour") {
                view, context in
                view.drillIn(context: &context)
                return []
            },
            KeyBinding(.nextHour, hint: "next hour", help: "Open the entries that expire in the coming hour") {
                view, context in
                view.pane = .hours
                view.hour = 0
                view.drillIn(context: &context)
                return []
            },
            KeyBinding(.nextPane, hint: "ranges/hours", help: "Switch between the ranges and the hours") { view, _ in
                view.switchPane()
            },
            KeyBinding(.previousPane, help: "Switch between the ranges and the hours") { view, _ in view.switchPane() },
            KeyBinding(.sweep, hint: "sweep", help: "Sweep what it shows as expired", destructive: true) {
                view, context in
                context.startAction(
                    .target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace ?? "all")")
                return []
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.move(move)
            return []
        }

    package static let tab: ViewTab? = ViewTab(
        action: .showTimeline, label: "Timeline", help: "Expiry timeline (of the namespace in view)")

    package static func opened(from context: ViewContext) -> TimelineView? {
        TimelineView(namespace: context.model.current.view.subjectNamespace)
    }
    package var isAuxiliary: Bool { true }
    package var subjectNamespace: String? { namespace }

    package func breadcrumb(in context: ViewContext) -> String? {
        "timeline" + (namespace.map { " of \($0)" } ?? "")
    }

    /// In the hours, ← and → step through the hours (elsewhere they go back and open).
    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? {
        guard pane == .hours, key == .left || key == .right else { return nil }
        move(key == .left ? .up : .down)
        return []
    }

    /// A click selects a range or an hour; a click on the selected one opens its entries.
    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        guard let snapshot, let hit = TimelineScreen.hit(point, in: area, snapshot: snapshot) else { return [] }
        let selected = pane == .ranges ? TimelineScreen.Hit.range(range) : .hour(hour)
        if hit == selected {
            drillIn(context: &context)
            return []
        }
        switch hit {
        case .range(let index): (pane, range) = (.ranges, index)
        case .hour(let index): (pane, hour) = (.hours, index)
        }
        return []
    }

    private mutating func switchPane() -> [ConsoleEffect] {
        pane = pane == .ranges ? .hours : .ranges
        return []
    }

    private mutating func move(_ move: ListMove) {
        switch pane {
        case .ranges: range = ListMove.clamp(range + move.delta(page: 4), count: snapshot?.buckets.count ?? 0)
        case .hours: hour = ListMove.clamp(hour + move.delta(page: 12), count: snapshot?.hourly.count ?? 0)
        }
    }

    /// Opens the Entries of the namespace filtered to exactly what the selected range or hour
    /// counts, soonest expiry first.
    private func drillIn(context: inout ViewContext) {
        guard let snapshot else { return }
        guard let namespace else {
            context.report(
                "The timeline of every namespace has no one list of entries: open a namespace "
                    + "(\(context.label(.drillIn)) on the Overview), then its timeline (\(context.label(.showTimeline))).")
            return
        }
        let filter = pane == .ranges ? snapshot.filter(bucket: range) : snapshot.filter(hour: hour)
        guard let filter else {
            context.report(
                snapshot.isAges
                    ? "This cache records no expiry times to list entries by."
                    : "Another library's cache: its timeline has no exact bounds to list entries by.")
            return
        }
        context.show(EntriesView(namespace: namespace, filter: filter, sort: EntrySort(.expires)))
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [TimelineRead] {
        [TimelineRead(namespace: namespace)]
    }

    package mutating func apply(_ snapshot: TimelineSnapshot, for read: TimelineRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        self.snapshot = snapshot
        range = ListMove.clamp(range, count: snapshot.buckets.count)
        hour = ListMove.clamp(hour, count: snapshot.hourly.count)
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        TimelineScreen.draw(self, in: area, into: &buffer, options: options)
    }
}

/// The expiry timeline of a namespace (`nil`: of the store).
package struct TimelineRead: ConsoleRead {
    let namespace: String?

    package func run(on source: any ConsoleDataSource) throws -> TimelineSnapshot {
        try source.timeline(namespace: namespace)
    }
}
