import TerminalUI
import CacheCore
/// The Statistics view: a namespace list and the graphs of the selected one.
package struct StatisticsView: ConsoleView {
    /// The panels Tab moves between.
    package enum Pane: Sendable, Hashable {
        /// The namespace list.
        case namespaces
        /// The graphs.
        case graphs
    }

    /// The window graphed.
    package internal(set) var window = StatisticsWindow.fiveMinutes
    /// The selected row of the list: 0 is every namespace together.
    package internal(set) var selection = 0
    /// The panel with focus.
    package internal(set) var pane = Pane.namespaces
    /// The telemetry as last read.
    package internal(set) var snapshot: StatisticsSnapshot?
    /// Where the bucket under the graphs' cursor starts (ms), so the cursor stays on its
    /// minute as the window moves on; `nil`: the newest bucket.
    package internal(set) var bucketStart: Int64?

    /// The graphs of `namespace` (`nil`: every namespace together), among `names`.
    init(namespace: String? = nil, among names: [String] = []) {
        if let namespace, let index = names.firstIndex(of: namespace) { selection = index + 1 }
    }

    package static let title = "Statistics"

    package static let bindings: [KeyBinding<StatisticsView>] =
        [
            KeyBinding(
                .drillIn, hint: "entries",
                help: "Into the graphs; there, open the entries written in the bucket under the cursor (←/→ move it)"
            ) { view, context in
                if view.pane == .namespaces { return view.switchPane() }
                view.drillIn(context: &context)
                return []
            },
            KeyBinding(.cycleWindow, hint: "window", help: "Window: 5 min, 1 h, 24 h") { view, context in
                view.window = view.window.next
                view.snapshot = nil
                view.bucketStart = nil
                context.load(view.loads(in: context, refreshing: false))
                return []
            },
            KeyBinding(.nextPane, hint: "panel", help: "Switch between the list and the graphs") { view, _ in
                view.switchPane()
            },
            KeyBinding(.previousPane, help: "Switch between the list and the graphs") { view, _ in view.switchPane() },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.selection = ListMove.clamp(
                view.selection + move.delta(page: context.pageRows), count: context.model.namespaceNames.count + 1)
            return []
        }

    package static let tab: ViewTab? = ViewTab(
        action: .showStatistics, label: "Stats", help: "Statistics (of the namespace in view)")

    package static func opened(from context: ViewContext) -> StatisticsView? {
        StatisticsView(namespace: context.model.current.view.subjectNamespace, among: context.model.namespaceNames)
    }

    private mutating func switchPane() -> [ConsoleEffect] {
        pane = pane == .namespaces ? .graphs : .namespaces
        return []
    }

    /// The series of the selected row (every namespace together for the first).
    func selectedSeries(names: [String]) -> StatisticsSeries? {
        guard let snapshot else { return nil }
        return names.indices.contains(selection - 1) ? snapshot.namespaces[names[selection - 1]] ?? .empty : snapshot.overall
    }

    /// The index of the bucket under the cursor in `series` (its newest without a choice).
    func bucketIndex(in series: StatisticsSeries) -> Int? {
        guard !series.spans.isEmpty else { return nil }
        guard let bucketStart else { return series.spans.count - 1 }
        return series.spans.lastIndex { $0.start <= bucketStart } ?? 0
    }

    /// In the graphs, ← and → move the cursor a bucket (elsewhere they go back and open).
    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? {
        guard pane == .graphs, key == .left || key == .right,
            let series = selectedSeries(names: context.model.namespaceNames), let index = bucketIndex(in: series)
        else { return nil }
        let moved = ListMove.clamp(index + (key == .left ? -1 : 1), count: series.spans.count)
        bucketStart = moved == series.spans.count - 1 ? nil : series.spans[moved].start
        return []
    }

    /// Opens the Entries of the selected namespace filtered to what was written in the bucket
    /// under the cursor, with the bucket's own counts beside the filter's; says why not where
    /// there is nothing to list (removals no longer exist as entries).
    private func drillIn(context: inout ViewContext) {
        let names = context.model.namespaceNames
        guard let series = selectedSeries(names: names) else { return }
        guard let index = bucketIndex(in: series), let filter = series.writtenFilter(bucket: index) else {
            context.report(
                "These graphs have no exact bucket bounds to list entries by (a Redis store's 5-minute graphs "
                    + "are sampled from counters): \(context.label(.cycleWindow)) switches the window.")
            return
        }
        guard names.indices.contains(selection - 1) else {
            context.report(
                "The statistics of every namespace have no one list of entries: select a namespace in the list "
                    + "(\(context.label(.moveDown))), then open a bucket.")
            return
        }
        let bucket = series.spans[index]
        let span = Self.spanText(bucket, resolution: series.resolution)
        guard bucket.sets > 0 else {
            let removed = Self.removals(bucket)
            context.report(
                "Nothing was written to \(names[selection - 1]) in \(span)"
                    + (removed.isEmpty ? "." : ": what it counts (\(removed)) no longer exists as entries to list."))
            return
        }
        var note = "\(span) counted \(Formatting.count(bucket.sets)) sets"
        let removed = Self.removals(bucket)
        if !removed.isEmpty { note += " (\(removed): gone, not listed)" }
        context.show(
            EntriesView(
                namespace: names[selection - 1], filter: filter, sort: EntrySort(.created, descending: true),
                note: note))
    }

    /// A bucket's bounds: `05:03:00–05:04:00 UTC`.
    static func spanText(_ bucket: Activity, resolution: Int64) -> String {
        let end = bucket.start.addingClamped(resolution)
        return "\(TimeText.clock(bucket.start))–\(TimeText.clock(end)) UTC"
    }

    /// What a bucket removed, which a list of entries cannot show: `3 evicted, 2 expired`.
    static func removals(_ bucket: Activity) -> String {
        [
            (bucket.evictions, "evicted"), (bucket.expirations, "expired"), (bucket.removes, "removed"),
            (bucket.invalidations, "invalidated"),
        ].filter { $0.0 > 0 }.map { "\(Formatting.count($0.0)) \($0.1)" }.joined(separator: ", ")
    }
    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? {
        let names = context.model.namespaceNames
        let scope = names.indices.contains(selection - 1) ? names[selection - 1] : "all"
        return "statistics of \(scope), last \(window.rawValue)"
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        let list = StatisticsScreen.listArea(in: area).insetBy(1)
        guard list.contains(point) else {
            pane = .graphs
            return []
        }
        pane = .namespaces
        let first = max(0, selection - list.size.rows + 1)
        selection = ListMove.clamp(first + point.row - list.minRow, count: context.model.namespaceNames.count + 1)
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [StatisticsRead] {
        [StatisticsRead(window: window)]
    }

    package mutating func apply(_ snapshot: StatisticsSnapshot, for read: StatisticsRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard read.window == window else { return [] }
        self.snapshot = snapshot
        // A cursor on a bucket the window has moved past goes to the oldest one left.
        if let bucketStart, let first = selectedSeries(names: context.model.namespaceNames)?.spans.first,
            bucketStart < first.start
        {
            self.bucketStart = first.start
        }
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        StatisticsScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// The telemetry of a window.
package struct StatisticsRead: ConsoleRead {
    let window: StatisticsWindow

    package func run(on source: any ConsoleDataSource) throws -> StatisticsSnapshot {
        try source.statistics(window: window)
    }
}
