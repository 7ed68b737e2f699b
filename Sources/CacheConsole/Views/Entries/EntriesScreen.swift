import TerminalUI
import CacheCore

/// A namespace's entries: a line of facts (count, order, filter, marks, position), then the
/// table. Rows not held yet show as dots while their page is read.
enum EntriesScreen {
    /// Entry rows that fit at `size`.
    static func listHeight(for size: Size) -> Int {
        max(1, ConsoleLayout.body(size).size.rows - 4)
    }

    /// The table's columns (the layout tests check rows against them).
    static let columns: [TableColumn] = [
        TableColumn(title: "", width: .fixed(1)),
        TableColumn(title: "key", width: .flexible(minimum: 14, weight: 3)),
        TableColumn(title: "size", width: .fixed(8), alignment: .trailing),
        TableColumn(title: "age", width: .fixed(5), alignment: .trailing),
        TableColumn(title: "expires", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "hits", width: .fixed(6), alignment: .trailing),
        TableColumn(title: "accessed", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "tags", width: .flexible(minimum: 4, weight: 1)),
    ]

    /// The table column of each ``EntryColumn``.
    private static func index(of column: EntryColumn) -> Int {
        switch column {
        case .key: 1
        case .size: 2
        case .age: 3
        case .expires: 4
        case .hits: 5
        case .lastAccess: 6
        case .tags: 7
        }
    }

    /// The sortable column at `offset` cells into a table `width` cells wide, if any.
    static func column(at offset: Int, width: Int) -> EntryColumn? {
        var start = 0
        for (index, columnWidth) in TableColumn.widths(columns, total: width).enumerated() {
            if offset < start + columnWidth + 1 {
                return EntryColumn.allCases.first { self.index(of: $0) == index && $0.defaultSort != nil }
            }
            start += columnWidth + 1
        }
        return nil
    }

    static func draw(
        _ view: EntriesView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        drawFacts(view, model: model, in: area, into: &buffer, options: options)
        let box = Rect(
            column: area.minColumn, row: area.minRow + 1, columns: area.size.columns, rows: area.size.rows - 1)
        buffer.drawBox(box, style: CellStyle(.border), border: options.border, title: "Entries")
        let inner = box.insetBy(1)
        guard !inner.isEmpty else { return }
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        let shown = EntryColumn.shown(for: view.sort)
        buffer.drawTableHeader(
            columns, widths: widths, at: inner.origin, width: inner.size.columns,
            sorted: view.isScanOrder ? nil : (index(of: shown.column), shown.descending), glyphs: options.glyphs)
        let window = view.window
        let height = inner.size.rows - 1
        if window.hasLoaded && window.knownCount == 0 && window.isComplete {
            let text = view.filter.isEmpty ? "No entries." : "No entry matches '\(view.filter)'."
            buffer.put(
                text, at: Point(column: inner.minColumn + 2, row: inner.minRow + 1), style: CellStyle(.muted),
                maxWidth: inner.size.columns - 2)
            return
        }
        for line in 0..<height {
            let position = window.top + line
            let point = Point(column: inner.minColumn, row: inner.minRow + 1 + line)
            guard let row = window.row(at: position) else {
                let beyond = window.isComplete && !(window.bounds?.contains(position) ?? false)
                if !beyond { buffer.put("  \(options.ellipsis)", at: point, style: CellStyle(.muted)) }
                continue
            }
            let marked = view.marksAllMatching || view.marks[row.id] != nil
            let changed = view.changedAt[row.id]?.fields ?? []
            let cells = cells(for: row, marked: marked, changed: changed, now: model.now, options: options)
            let rowStyle: CellStyle? = position == window.selection ? CellStyle(.selection) : nil
            buffer.drawTableRow(
                cells, columns: columns, widths: widths, at: point, width: inner.size.columns, rowStyle: rowStyle)
        }
    }

    private static func cells(
        for row: EntryInfo, marked: Bool, changed: ChangedFields, now: Int64, options: RenderOptions
    ) -> [TableCell] {
        func style(_ field: ChangedFields, otherwise role: StyleRole) -> CellStyle {
            CellStyle(changed.contains(field) ? .highlightChanged : role)
        }
        let expiresRole: StyleRole =
            switch row.expiresAt {
            case nil: .muted
            case let at? where now >= at: .bad
            case let at? where TimeText.between(now, at) < 60_000: .warn
            default: .text
            }
        return [
            TableCell(marked ? options.markGlyph : "", CellStyle(.marked)),
            TableCell(row.label ?? row.key, CellStyle(marked ? .marked : .text)),
            TableCell(Formatting.bytes(row.size), style(.size, otherwise: .text)),
            TableCell(row.createdAt.map { TimeText.span(TimeText.between($0, now)) } ?? "–", CellStyle(.muted)),
            TableCell(TimeText.expiry(row.expiresAt, now: now), style(.expiry, otherwise: expiresRole)),
            TableCell(row.hits.map(Formatting.count) ?? "–", style(.hits, otherwise: row.hits == nil ? .muted : .text)),
            TableCell(TimeText.accessed(row, now: now), style(.lastAccess, otherwise: .muted)),
            TableCell(row.tags.joined(separator: ","), CellStyle(.tag)),
        ]
    }

    private static func drawFacts(
        _ view: EntriesView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let namespace = model.overview?.namespaces.first { $0.name == view.namespace }
        var facts: [(String, CellStyle)] = [(" " + view.namespace, CellStyle(.title))]
        if let namespace {
            facts.append(("\(namespace.isExact ? "" : "≥ ")\(Formatting.entries(namespace.entries))", .text))
        }
        if view.isScanOrder { facts.append(("SCAN order", CellStyle(.muted))) }
        let window = view.window
        // Orders without an index rank the whole namespace before their first page arrives.
        if !view.isScanOrder && !view.sort.field.hasIndex && !window.loading.isEmpty {
            facts.append(("ranking by \(EntryColumn.shown(for: view.sort).column.title)\(options.ellipsis)", CellStyle(.info)))
        }
        if !view.filter.isEmpty {
            let matching =
                view.matchCount.map { "\(Formatting.count($0)) matching" }
                ?? (window.isComplete
                    ? "\(Formatting.count(window.knownCount)) matching"
                    : "≥ \(Formatting.count(window.knownCount)) matching")
            // A long filter (a drill-down's times) gives way before its count does.
            let count = " (\(matching))"
            // So does it before the note of what it was opened from (a bucket's own counts).
            let noteWidth = view.note.map { TerminalText.displayWidth(of: $0) + 3 } ?? 0
            let room =
                area.size.columns - 2 - noteWidth - facts.reduce(0) { $0 + TerminalText.displayWidth(of: $1.0) + 3 }
            let filter = TerminalText.truncate(
                "filter \(view.filter)", toWidth: max(8, room - TerminalText.displayWidth(of: count)),
                ellipsis: options.ellipsis)
            facts.append((filter + count, CellStyle(.info)))
            if let note = view.note { facts.append((note, CellStyle(.muted))) }
        }
        if view.marksAllMatching {
            facts.append(("all matching marked", CellStyle(.marked)))
        } else if !view.marks.isEmpty {
            facts.append(("\(Formatting.count(view.marks.count)) marked", CellStyle(.marked)))
        }
        if window.knownCount > 0 {
            let chain = window.chain(window.selection) + 1
            let total =
                view.filter.isEmpty
                ? namespace.flatMap { $0.isExact ? $0.entries : nil } ?? (window.isComplete ? window.knownCount : nil)
                : view.matchCount ?? (window.isComplete ? window.knownCount : nil)
            let position: String
            if window.anchor == .top {
                position = "row \(Formatting.count(chain))" + (total.map { " of \(Formatting.count($0))" } ?? "")
            } else if let total {
                position = "row \(Formatting.count(max(1, total - chain + 1))) of \(Formatting.count(total))"
            } else {
                position = "row \(Formatting.count(chain)) from the end"
            }
            facts.append((position, CellStyle(.muted)))
        }
        var column = area.minColumn
        for (index, fact) in facts.enumerated() {
            let text = (index > 0 ? options.dot : "") + fact.0
            column = buffer.put(
                text, at: Point(column: column, row: area.minRow), style: fact.1,
                maxWidth: area.maxColumn - column - 1, truncation: .ellipsis(options.ellipsis))
        }
    }
}
