/// Telemetry graphs: a namespace list (the first row is all of them) and, for the selected
/// one, hit rate, operations and evictions over the window (braille, or ASCII).
enum StatisticsScreen {
    private static let listColumns = 22

    /// `values` stretched or squeezed to `count` (nearest value), so a series spans the graph.
    static func resampled(_ values: [Double], to count: Int) -> [Double] {
        guard !values.isEmpty, count > 0 else { return [] }
        return (0..<count).map { values[min(values.count - 1, $0 * values.count / count)] }
    }

    static func draw(
        _ view: StatisticsView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let names = [nil] + model.namespaceNames.map(Optional.some)
        let selected = names.indices.contains(view.selection) ? names[view.selection] : nil
        let list = Rect(column: area.minColumn, row: area.minRow, columns: listColumns, rows: area.size.rows)
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
        let graphs = Rect(
            column: list.maxColumn, row: area.minRow, columns: area.size.columns - listColumns, rows: area.size.rows)
        guard let snapshot = view.snapshot else {
            buffer.put(
                " Reading \(view.window.rawValue) of telemetry\(options.ellipsis)",
                at: Point(column: graphs.minColumn, row: graphs.minRow), style: CellStyle(.muted))
            return
        }
        let series = selected.map { snapshot.namespaces[$0] ?? .empty } ?? snapshot.overall
        let height = graphs.size.rows / 3
        let panels: [(String, [Double], ClosedRange<Double>?, (Double) -> String)] = [
            ("Hit rate", series.hitRate, 0...1, { TimeText.percent($0) }),
            ("Operations", series.operations, nil, TimeText.rate),
            ("Evictions", series.evictions, nil, TimeText.rate),
        ]
        for (index, panel) in panels.enumerated() {
            let rows = index == panels.count - 1 ? graphs.size.rows - 2 * height : height
            let box = Rect(
                column: graphs.minColumn, row: graphs.minRow + index * height, columns: graphs.size.columns, rows: rows)
            let finite = panel.1.filter(\.isFinite)
            // The newest bucket is still filling (telemetry arrives once a second): "now" is the
            // one before it.
            let last = panel.1.dropLast().last(where: \.isFinite)
            let summary =
                finite.isEmpty
                ? "no data" : "now \(last.map(panel.3) ?? "–")\(options.dot)peak \(panel.3(finite.max() ?? 0))"
            buffer.drawBox(
                box, style: CellStyle(view.pane == .graphs ? .title : .border), border: options.border,
                title: "\(panel.0)\(options.dot)\(summary)")
            let inner = box.insetBy(1)
            let columns = inner.size.columns * (options.glyphs == .unicode ? 2 : 1)
            buffer.drawGraph(resampled(panel.1, to: columns), in: inner, range: panel.2, glyphs: options.glyphs)
        }
    }
}
