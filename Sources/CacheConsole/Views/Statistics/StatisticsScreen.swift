import TerminalUI
import CacheCore
/// Telemetry graphs: a namespace list (the first row is all of them) and, for the selected
/// one, hit rate, operations and evictions over the window, each with a value axis, time
/// ticks and its scale in the title (braille, or ASCII).
enum StatisticsScreen {
    private static let listColumns = 22
    /// The value axis's width, left of each graph.
    private static let axisColumns = 8

    /// `values` spread over `count` columns: each column shows the mean of the finite values
    /// that fall in it (stretching repeats values), so squeezing never drops a bucket that
    /// has data.
    static func resampled(_ values: [Double], to count: Int) -> [Double] {
        guard !values.isEmpty, count > 0 else { return [] }
        return (0..<count).map { column in
            let first = column * values.count / count
            let end = max(first + 1, (column + 1) * values.count / count)
            let finite = values[first..<min(end, values.count)].filter(\.isFinite)
            return finite.isEmpty ? .nan : finite.reduce(0, +) / Double(finite.count)
        }
    }

    /// The top of an automatic scale: the largest value, unless it towers over the rest (a
    /// startup spike), when the scale follows the rest and the spike is clipped.
    static func scaleTop(_ values: [Double]) -> (top: Double, clipped: Bool) {
        let finite = values.filter(\.isFinite).sorted()
        guard let largest = finite.last, largest > 0 else { return (1, false) }
        let typical = finite[Int(Double(finite.count - 1) * 0.9)]
        guard finite.count >= 5, typical > 0, largest > 4 * typical else { return (largest, false) }
        return (typical * 1.5, true)
    }

    /// The hit-rate axis for `values`: the data's range with room around it, in whole
    /// percents (steps of 5 beyond 20 points), so a 79–82 % trend is not a flat line; 0–100 %
    /// when the data spans most of it or there is none.
    static func hitRateScale(_ values: [Double]) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return 0...1 }
        // In whole percents (a hair of slack so 0.78 is not taken for 77.999…).
        let margin = max((high - low) * 25, 1)
        let step = high - low > 0.2 ? 5.0 : 1.0
        let bottom = max(0, ((low * 100 - margin) / step + 1e-6).rounded(.down) * step)
        let top = min(100, ((high * 100 + margin) / step - 1e-6).rounded(.up) * step)
        return top - bottom >= 60 ? 0...1 : bottom / 100...top / 100
    }

    /// What apps did over the window, the figures behind the hit rate: reads, misses,
    /// evictions, expirations, loader failures ("–" without loader calls) and operations.
    static func totalsLine(_ totals: ActivityCounts?, window: StatisticsWindow, options: RenderOptions) -> String {
        guard let totals else { return "Last \(window.rawValue): – (no telemetry yet)" }
        return "Last \(window.rawValue): "
            + [
                "\(Formatting.count(totals.requests)) reads", "\(Formatting.count(totals.misses)) misses",
                "\(Formatting.count(totals.evictions)) evicted", "\(Formatting.count(totals.expirations)) expired",
                "\(totals.loadFailures.map(Formatting.count) ?? "–") load failures",
                "\(TimeText.rate(totals.operationsPerSecond)) ops",
            ].joined(separator: options.dot)
    }

    /// What the bucket under the cursor counted (operations, not entries) and what `Enter`
    /// lists from it.
    static func bucketLine(_ bucket: Activity, resolution: Int64, options: RenderOptions) -> String {
        let removed = StatisticsView.removals(bucket)
        return StatisticsView.spanText(bucket, resolution: resolution) + ": "
            + [
                "\(Formatting.count(bucket.sets)) sets", "\(Formatting.count(bucket.requests)) reads",
                "\(Formatting.count(bucket.misses)) misses", removed.isEmpty ? "nothing removed" : removed,
                "Enter lists what was written then",
            ].joined(separator: options.dot)
    }

    /// The namespace list's box in `area` (below the line of totals).
    static func listArea(in area: Rect) -> Rect {
        Rect(column: area.minColumn, row: area.minRow + 1, columns: listColumns, rows: area.size.rows - 1)
    }

    /// One graph panel.
    private struct Panel {
        var title: String
        var values: [Double]
        /// The value axis (`nil`: 0 through the data's top, a spike clipped).
        var range: ClosedRange<Double>?
        var format: (Double) -> String
        /// The role of a row at a height (0 bottom, 1 top).
        var roles: (Double) -> StyleRole = StyleRole.graph(at:)
    }

    static func draw(
        _ view: StatisticsView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let names = [nil] + model.namespaceNames.map(Optional.some)
        let selected = names.indices.contains(view.selection) ? names[view.selection] : nil
        let list = listArea(in: area)
        buffer.drawBox(
            list, style: CellStyle(view.pane == .namespaces ? .title : .border), border: options.border,
            title: "Namespaces")
        let inner = list.insetBy(1)
        let first = max(0, view.selection - inner.size.rows + 1)
        for (offset, name) in names.dropFirst(first).prefix(inner.size.rows).enumerated() {
            let isSelected = first + offset == view.selection
            let style =
                isSelected
                ? CellStyle(view.pane == .namespaces ? .selection : .selectionInactive)
                : CellStyle(name == nil ? .info : .text)
            buffer.put(
                TerminalText.pad(" " + (name ?? "(all)"), toWidth: inner.size.columns),
                at: Point(column: inner.minColumn, row: inner.minRow + offset), style: style)
        }
        guard let snapshot = view.snapshot else {
            buffer.put(
                " Reading \(view.window.rawValue) of telemetry\(options.ellipsis)", at: area.origin,
                style: CellStyle(.muted))
            return
        }
        let series = selected.map { snapshot.namespaces[$0] ?? .empty } ?? snapshot.overall
        // In the graphs, the line says what the bucket under the cursor counted.
        let cursor = view.pane == .graphs ? view.bucketIndex(in: series) : nil
        let line =
            cursor.map { bucketLine(series.spans[$0], resolution: series.resolution, options: options) }
            ?? totalsLine(series.totals, window: view.window, options: options)
        buffer.put(" " + line, at: area.origin, maxWidth: area.size.columns, truncation: .ellipsis(options.ellipsis))
        let graphs = Rect(
            column: list.maxColumn, row: list.minRow, columns: area.size.columns - listColumns, rows: list.size.rows)
        let height = graphs.size.rows / 3
        let hitRange = hitRateScale(series.hitRate)
        let percents = "\(Int((hitRange.lowerBound * 100).rounded()))–\(Int((hitRange.upperBound * 100).rounded())) %"
        let panels = [
            Panel(
                title: "Hit rate\(options.dot)scale \(percents)", values: series.hitRate, range: hitRange,
                format: { TimeText.percent($0) },
                // A row is coloured by the hit rate it stands for on this axis.
                roles: { OverviewScreen.hitRateRole(hitRange.lowerBound + $0 * (hitRange.upperBound - hitRange.lowerBound)) }),
            // Many operations are neither good nor bad: one neutral colour, not a gradient to red.
            Panel(
                title: "Operations per second", values: series.operations, format: TimeText.rate,
                roles: { _ in .info }),
            Panel(title: "Evictions per second", values: series.evictions, format: TimeText.rate),
        ]
        for (index, panel) in panels.enumerated() {
            let rows = index == panels.count - 1 ? graphs.size.rows - 2 * height : height
            let box = Rect(
                column: graphs.minColumn, row: graphs.minRow + index * height, columns: graphs.size.columns, rows: rows)
            drawPanel(
                panel, window: view.window, cursor: cursor, focused: view.pane == .graphs, in: box, into: &buffer,
                options: options)
        }
    }

    private static func drawPanel(
        _ panel: Panel, window: StatisticsWindow, cursor: Int?, focused: Bool, in box: Rect,
        into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let finite = panel.values.filter(\.isFinite)
        // The newest bucket is still filling (telemetry arrives once a second): "now" is the
        // one before it, unless only the newest has data.
        let last = panel.values.dropLast().last(where: \.isFinite) ?? panel.values.last(where: \.isFinite)
        let (top, clipped) = panel.range.map { ($0.upperBound, false) } ?? scaleTop(panel.values)
        let bottom = panel.range?.lowerBound ?? 0
        var summary = "no data"
        if !finite.isEmpty {
            summary = "now \(last.map(panel.format) ?? "–")\(options.dot)peak \(panel.format(finite.max() ?? 0))"
            if clipped { summary += "\(options.dot)spike clipped" }
        }
        buffer.drawBox(
            box, style: CellStyle(focused ? .title : .border), border: options.border,
            title: "\(panel.title)\(options.dot)\(summary)")
        let inner = box.insetBy(1)
        guard inner.size.rows >= 3, inner.size.columns > axisColumns + 10 else {
            let columns = inner.size.columns * (options.glyphs == .unicode ? 2 : 1)
            buffer.drawGraph(
                resampled(panel.values, to: columns), in: inner, range: bottom...top, roles: panel.roles,
                glyphs: options.glyphs)
            return
        }
        let plot = Rect(
            column: inner.minColumn + axisColumns, row: inner.minRow, columns: inner.size.columns - axisColumns,
            rows: inner.size.rows - 1)
        // The value axis: the top of the scale, its middle and its bottom.
        let axis = [(plot.minRow, top), (plot.minRow + plot.size.rows / 2, (bottom + top) / 2), (plot.maxRow - 1, bottom)]
        for (row, value) in axis where row < plot.maxRow {
            let text = panel.format(value)
            let label = panel.range == nil && text.hasSuffix("/s") ? String(text.dropLast(2)) : text
            buffer.put(
                TerminalText.pad(label, toWidth: axisColumns - 1, alignment: .trailing),
                at: Point(column: inner.minColumn, row: row), style: CellStyle(.muted), maxWidth: axisColumns - 1)
        }
        let columns = plot.size.columns * (options.glyphs == .unicode ? 2 : 1)
        buffer.drawGraph(
            resampled(panel.values, to: columns), in: plot, range: bottom...top, roles: panel.roles,
            glyphs: options.glyphs)
        drawTimeTicks(window, under: plot, into: &buffer)
        if let cursor { drawCursor(at: cursor, of: panel.values.count, in: plot, into: &buffer) }
    }

    /// The bucket under the cursor: its columns of the plot in the selection style.
    private static func drawCursor(at index: Int, of count: Int, in plot: Rect, into buffer: inout ScreenBuffer) {
        guard count > 0 else { return }
        let first = plot.minColumn + index * plot.size.columns / count
        let end = max(first + 1, plot.minColumn + (index + 1) * plot.size.columns / count)
        for row in plot.minRow..<plot.maxRow {
            for column in first..<min(end, plot.maxColumn) {
                let point = Point(column: column, row: row)
                buffer.put(buffer[point]?.text ?? " ", at: point, style: CellStyle(.selection))
            }
        }
    }

    /// Time ticks under a graph: how long ago each point on the axis was, and `now`.
    private static func drawTimeTicks(_ window: StatisticsWindow, under plot: Rect, into buffer: inout ScreenBuffer) {
        let (minutes, step): (Int, Int) =
            switch window {
            case .fiveMinutes: (5, 1)
            case .hour: (60, 15)
            case .day: (24 * 60, 6 * 60)
            }
        let row = plot.maxRow
        var nextFree = plot.minColumn
        for ago in stride(from: minutes, through: 0, by: -step) {
            let label = ago == 0 ? "now" : ago >= 60 ? "-\(ago / 60)h" : "-\(ago)m"
            let width = TerminalText.displayWidth(of: label)
            let position = plot.minColumn + (plot.size.columns - 1) * (minutes - ago) / minutes
            let column = min(max(plot.minColumn, position - width / 2), plot.maxColumn - width)
            guard column >= nextFree else { continue }
            buffer.put(label, at: Point(column: column, row: row), style: CellStyle(.muted))
            nextFree = column + width + 1
        }
    }
}
