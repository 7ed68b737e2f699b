import TerminalUI
import CacheCore

/// The expiry timeline: entries and bytes per expiry range, then the next 48 hours hour by
/// hour as bars.
enum TimelineScreen {
    static func draw(_ view: TimelineView, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions) {
        let scope = view.namespace ?? "all namespaces"
        guard let snapshot = view.snapshot else {
            buffer.put(" Counting expiries of \(scope)\(options.ellipsis)", at: area.origin, style: CellStyle(.muted))
            return
        }
        let bucketRows = min(snapshot.buckets.count + 3, area.size.rows - 4)
        let top = Rect(column: area.minColumn, row: area.minRow, columns: area.size.columns, rows: bucketRows)
        drawBuckets(snapshot, scope: scope, in: top, into: &buffer, options: options)
        if snapshot.isAges { return }
        let bottom = Rect(
            column: area.minColumn, row: top.maxRow, columns: area.size.columns, rows: area.size.rows - bucketRows)
        drawHours(snapshot, in: bottom, into: &buffer, options: options)
    }

    private static let columns: [TableColumn] = [
        TableColumn(title: "expires", width: .fixed(12)),
        TableColumn(title: "entries", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "bytes", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "", width: .flexible(minimum: 8, weight: 1)),
    ]

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
        _ snapshot: TimelineSnapshot, scope: String, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let counting = snapshot.isExact ? "" : "\(options.dot)counting, at least"
        buffer.drawBox(
            area, style: CellStyle(.border), border: options.border,
            title: snapshot.isAges
                ? "Ages of \(scope) (no expiry is recorded)" : "Expiry of \(scope)\(counting)")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
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
            buffer.drawTableRow(
                [
                    TableCell(bucket.ageLabel ?? name(bucket.kind), CellStyle(bucket.ageLabel == nil ? role : .text)),
                    TableCell((snapshot.isExact ? "" : "≥") + Formatting.count(bucket.entries)),
                    TableCell((snapshot.isExact ? "" : "≥") + bytes, CellStyle(.muted)), TableCell(""),
                ], columns: columns, widths: widths, at: Point(column: inner.minColumn, row: row),
                width: inner.size.columns)
            buffer.drawBar(
                at: Point(column: inner.minColumn + widths[0] + widths[1] + widths[2] + 3, row: row),
                width: widths[3], fraction: Double(bucket.bytes) / Double(largest), glyphs: options.glyphs)
        }
    }

    private static func drawHours(
        _ snapshot: TimelineSnapshot, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let total = snapshot.hourly.reduce(0, +)
        buffer.drawBox(
            area, style: CellStyle(.border), border: options.border,
            title: "Next 48 hours\(options.dot)\(snapshot.isExact ? "" : "≥ ")\(Formatting.count(total)) entries, peak "
                + Formatting.count(snapshot.hourly.max() ?? 0) + " per hour")
        let inner = area.insetBy(1)
        guard inner.size.rows >= 2, inner.size.columns > 4 else { return }
        guard total > 0 else {
            buffer.put("Nothing expires in the next 48 hours.", at: inner.origin, style: CellStyle(.muted))
            return
        }
        let spacing = max(1, (inner.size.columns - 1) / max(1, snapshot.hourly.count))
        let chart = Rect(
            column: inner.minColumn + 1, row: inner.minRow, columns: inner.size.columns - 1, rows: inner.size.rows - 1)
        buffer.drawColumns(snapshot.hourly.map(Double.init), in: chart, spacing: spacing, glyphs: options.glyphs)
        for hour in stride(from: 0, to: snapshot.hourly.count, by: 12) {
            let label = hour == 0 ? "now" : "+\(hour)h"
            buffer.put(
                label, at: Point(column: chart.minColumn + hour * spacing, row: inner.maxRow - 1),
                style: CellStyle(.muted))
        }
    }
}
