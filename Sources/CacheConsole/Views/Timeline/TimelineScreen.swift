import TerminalUI
import CacheCore

/// The expiry timeline: entries and bytes per expiry range, then the next 48 hours hour by
/// hour as bars, with the cursor on a range or an hour (its count in the title).
enum TimelineScreen {
    /// What a click lands on: a range's row or an hour's bar.
    enum Hit: Equatable {
        case range(Int)
        case hour(Int)
    }

    /// The range table's rows in `area` for `snapshot` (the hours' panel is below them).
    private static func rangeRows(_ snapshot: TimelineSnapshot, in area: Rect) -> Int {
        min(snapshot.buckets.count + 3, area.size.rows - 4)
    }

    /// The range row or hour bar at `point`, if any.
    static func hit(_ point: Point, in area: Rect, snapshot: TimelineSnapshot) -> Hit? {
        let rows = rangeRows(snapshot, in: area)
        let table = Rect(column: area.minColumn, row: area.minRow, columns: area.size.columns, rows: rows).insetBy(1)
        if table.contains(point) {
            let index = point.row - table.minRow - 1
            return snapshot.buckets.indices.contains(index) ? .range(index) : nil
        }
        let hours = Rect(
            column: area.minColumn, row: area.minRow + rows, columns: area.size.columns, rows: area.size.rows - rows
        ).insetBy(1)
        guard !snapshot.isAges, hours.contains(point), point.column > hours.minColumn else { return nil }
        let spacing = max(1, (hours.size.columns - 1) / max(1, snapshot.hourly.count))
        let hour = (point.column - hours.minColumn - 1) / spacing
        return snapshot.hourly.indices.contains(hour) ? .hour(hour) : nil
    }

    static func draw(_ view: TimelineView, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions) {
        let scope = view.namespace ?? "all namespaces"
        guard let snapshot = view.snapshot else {
            buffer.put(" Counting expiries of \(scope)\(options.ellipsis)", at: area.origin, style: CellStyle(.muted))
            return
        }
        let bucketRows = rangeRows(snapshot, in: area)
        let top = Rect(column: area.minColumn, row: area.minRow, columns: area.size.columns, rows: bucketRows)
        drawBuckets(snapshot, view: view, scope: scope, in: top, into: &buffer, options: options)
        if snapshot.isAges { return }
        let bottom = Rect(
            column: area.minColumn, row: top.maxRow, columns: area.size.columns, rows: area.size.rows - bucketRows)
        drawHours(snapshot, view: view, in: bottom, into: &buffer, options: options)
    }

    /// The table's columns; the first names what the rows are ranges of (expiry, or age).
    private static func columns(isAges: Bool) -> [TableColumn] {
        [
            TableColumn(title: isAges ? "age" : "expires", width: .fixed(12)),
            TableColumn(title: "entries", width: .fixed(10), alignment: .trailing),
            TableColumn(title: "bytes", width: .fixed(10), alignment: .trailing),
            TableColumn(title: "", width: .flexible(minimum: 8, weight: 1)),
        ]
    }

    /// How a bucket is named in the table.
    static func name(_ kind: ExpiryBucketKind) -> String {
        switch kind {
        case .expired: "expired"
        case .withinMinute: "< 1 min"
        case .withinFiveMinutes: "1–5 min"
        case .withinHour: "5 min–1 h"
        case .withinDay: "1 h–1 day"
        case .withinWeek: "1–7 days"
        case .later: "later"
        case .never: "never"
        }
    }

    private static func drawBuckets(
        _ snapshot: TimelineSnapshot, view: TimelineView, scope: String, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let counting = snapshot.isExact ? "" : "\(options.dot)counting, at least"
        let focused = view.pane == .ranges && !snapshot.isAges
        buffer.drawBox(
            area, style: CellStyle(focused ? .title : .border), border: options.border,
            title: snapshot.isAges
                ? "Ages of \(scope) (no expiry is recorded)" : "Expiry of \(scope)\(counting)")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let columns = columns(isAges: snapshot.isAges)
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        buffer.drawTableHeader(
            columns, widths: widths, at: inner.origin, width: inner.size.columns, glyphs: options.glyphs)
        // The bar follows the bytes column it sits beside.
        let largest = max(1, snapshot.buckets.map(\.bytes).max() ?? 1)
        for (offset, bucket) in snapshot.buckets.prefix(inner.size.rows - 1).enumerated() {
            let row = inner.minRow + 1 + offset
            let role: StyleRole =
                switch bucket.kind {
                case .expired: bucket.entries > 0 ? .bad : .muted
                case .withinMinute, .withinFiveMinutes: bucket.entries > 0 ? .warn : .muted
                case .never: .muted
                default: .text
                }
            let bytes = Formatting.bytes(Int(clamping: bucket.bytes))
            let selected = offset == view.range && !snapshot.isAges
            let rowStyle = selected ? CellStyle(focused ? .selection : .selectionInactive) : nil
            buffer.drawTableRow(
                [
                    TableCell(bucket.ageLabel ?? name(bucket.kind), CellStyle(bucket.ageLabel == nil ? role : .text)),
                    TableCell((snapshot.isExact ? "" : "≥") + Formatting.count(bucket.entries)),
                    TableCell((snapshot.isExact ? "" : "≥") + bytes, CellStyle(.muted)), TableCell(""),
                ], columns: columns, widths: widths, at: Point(column: inner.minColumn, row: row),
                width: inner.size.columns, rowStyle: rowStyle)
            buffer.drawBar(
                at: Point(column: inner.minColumn + widths[0] + widths[1] + widths[2] + 3, row: row),
                width: widths[3], fraction: Double(bucket.bytes) / Double(largest), glyphs: options.glyphs)
        }
    }

    private static func drawHours(
        _ snapshot: TimelineSnapshot, view: TimelineView, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let total = snapshot.hourly.reduce(0, +)
        let atLeast = snapshot.isExact ? "" : "≥ "
        let focused = view.pane == .hours
        let selected =
            snapshot.hourly.indices.contains(view.hour)
            ? "\(options.dot)\(hourName(view.hour)): \(atLeast)\(Formatting.count(snapshot.hourly[view.hour]))" : ""
        buffer.drawBox(
            area, style: CellStyle(focused ? .title : .border), border: options.border,
            title: "Next 48 hours\(options.dot)\(atLeast)\(Formatting.entries(total)), peak "
                + Formatting.count(snapshot.hourly.max() ?? 0) + " per hour" + selected)
        let inner = area.insetBy(1)
        guard inner.size.rows >= 2, inner.size.columns > 4 else { return }
        guard total > 0 else {
            buffer.put("Nothing expires in the next 48 hours.", at: inner.origin, style: CellStyle(.muted))
            return
        }
        let spacing = max(1, (inner.size.columns - 1) / max(1, snapshot.hourly.count))
        // Each bar's count stands over it where a bar is wide enough for it.
        let labelled = spacing >= 5 && inner.size.rows >= 4
        let chart = Rect(
            column: inner.minColumn + 1, row: inner.minRow + (labelled ? 1 : 0), columns: inner.size.columns - 1,
            rows: inner.size.rows - (labelled ? 2 : 1))
        buffer.drawColumns(snapshot.hourly.map(Double.init), in: chart, spacing: spacing, glyphs: options.glyphs)
        if labelled {
            let largest = max(1, snapshot.hourly.max() ?? 1)
            for (hour, count) in snapshot.hourly.enumerated() where count > 0 {
                let height = max(1, Int((Double(count) / Double(largest) * Double(chart.size.rows)).rounded(.up)))
                buffer.put(
                    compact(count), at: Point(column: chart.minColumn + hour * spacing, row: chart.maxRow - 1 - height),
                    style: CellStyle(.muted), maxWidth: spacing - 1)
            }
        }
        // The cursor: the selected hour's bar in the selection style, and a mark under it.
        let cursor = chart.minColumn + view.hour * spacing
        let cursorStyle = CellStyle(focused ? .selection : .selectionInactive)
        for row in chart.minRow..<chart.maxRow {
            for column in cursor..<cursor + max(1, spacing - 1) {
                let point = Point(column: column, row: row)
                if let cell = buffer[point], cell.text != " ", !cell.text.isEmpty {
                    buffer.put(cell.text, at: point, style: cursorStyle)
                }
            }
        }
        let axis = inner.maxRow - 1
        buffer.put(options.glyphs == .unicode ? "▲" : "^", at: Point(column: cursor, row: axis), style: cursorStyle)
        for hour in stride(from: 0, to: snapshot.hourly.count, by: 12) {
            let label = hour == 0 ? "now" : "+\(hour)h"
            // A label the mark would cover moves just past it, or gives way when that is not enough.
            var start = chart.minColumn + hour * spacing
            if start == cursor { start += 1 }
            guard !(start...(start + label.count)).contains(cursor) else { continue }
            buffer.put(label, at: Point(column: start, row: axis), style: CellStyle(.muted))
        }
    }

    /// The selected hour as the title names it: `next hour`, `+5h to +6h`.
    static func hourName(_ hour: Int) -> String {
        hour == 0 ? "coming hour" : "+\(hour)h to +\(hour + 1)h"
    }

    /// A count in at most four characters: `812`, `5.3k`, `12k`, `1.2M`.
    static func compact(_ count: Int) -> String {
        switch count {
        case ..<1000: return String(count)
        case ..<10_000: return "\(count / 1000).\(count % 1000 / 100)k"
        case ..<1_000_000: return "\(count / 1000)k"
        case ..<10_000_000: return "\(count / 1_000_000).\(count % 1_000_000 / 100_000)M"
        default: return "\(count / 1_000_000)M"
        }
    }
}
