@testable import CacheConsole
import TerminalUI

/// Column alignment of the tables holding untrusted text (namespaces, entries, audit log):
/// where the current view's table must be, found from the screen's own column rules and the
/// console layout, checked against the frame. The heading must sit at the expected column
/// starts (else the probe itself is wrong), and on the heading and on every data row the
/// one-cell gap before each column must be a blank cell and both box edges intact — a cell
/// wider than measured pushes text into a gap or over the edge.
struct TableCheck {
    var name: String
    /// The box's inside; the heading is its first row.
    var inner: Rect
    var columns: [TableColumn]
    /// The screen rows that hold data rows.
    var dataRows: [Int]

    /// The tables of the view in `controller` as it renders now (none under a confirmation
    /// dialog, which covers them; no row a long message wraps over).
    static func tables(in controller: ConsoleController) -> [TableCheck] {
        let firstStatusRow = controller.size.rows - controller.statusRows
        return viewTables(in: controller).map { table in
            var visible = table
            visible.dataRows = table.dataRows.filter { $0 < firstStatusRow }
            return visible
        }
    }

    private static func viewTables(in controller: ConsoleController) -> [TableCheck] {
        let model = controller.model
        let size = controller.size
        guard ConsoleLayout.fits(size) else { return [] }
        if case .confirm = model.overlay { return [] }
        let body = ConsoleLayout.body(size)
        switch model.current.view {
        case let view as OverviewView:
            guard let snapshot = model.overview else { return [] }
            let sideBySide = size.columns >= OverviewScreen.sideBySideColumns
            guard sideBySide || view.pane == .namespaces else { return [] }
            let box = Rect(
                column: 0, row: body.minRow + OverviewScreen.factRows,
                columns: size.columns - (sideBySide ? OverviewScreen.processColumns : 0),
                rows: body.size.rows - OverviewScreen.factRows)
            let inner = box.insetBy(1)
            let shown = min(inner.size.rows - 1, max(0, snapshot.namespaces.count - view.scroll))
            return [
                TableCheck(
                    name: "namespaces", inner: inner, columns: NamespaceField.columns(NamespaceField.fitting(inner.size.columns)),
                    dataRows: (0..<shown).map { inner.minRow + 1 + $0 })
            ]
        case let view as EntriesView:
            let inner = Rect(column: 1, row: body.minRow + 2, columns: size.columns - 2, rows: body.size.rows - 3)
            let window = view.window
            let empty = window.hasLoaded && window.knownCount == 0 && window.isComplete
            let rows = (0..<inner.size.rows - 1).filter { !empty && window.row(at: window.top + $0) != nil }
            return [
                TableCheck(
                    name: "entries", inner: inner, columns: EntriesScreen.columns,
                    dataRows: rows.map { inner.minRow + 1 + $0 })
            ]
        case let view as AuditView:
            guard let entries = view.entries else { return [] }
            let inner = body.insetBy(1)
            let height = inner.size.rows - 1
            let first = max(0, view.selection - height + 1)
            let shown = min(height, max(0, entries.count - first))
            return [
                TableCheck(
                    name: "audit log", inner: inner, columns: AuditScreen.columns,
                    dataRows: (0..<shown).map { inner.minRow + 1 + $0 })
            ]
        default:
            return []
        }
    }

    /// The problems of this table in `buffer`.
    func problems(in buffer: ScreenBuffer, glyphs: GlyphSet) -> [String] {
        guard !inner.isEmpty else { return [] }
        let vertical = glyphs == .unicode ? "│" : "|"
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        var starts: [Int] = []
        var column = inner.minColumn
        for width in widths {
            starts.append(column)
            column += width + 1
        }
        var problems: [String] = []
        let heading = Array(buffer.cells(inRow: inner.minRow))
        for (index, title) in columns.map(\.title).enumerated() where !title.isEmpty {
            let end = min(starts[index] + widths[index], inner.maxColumn)
            guard starts[index] < end else { continue }
            let text = heading[starts[index]..<end].map(\.text).joined().trimmingCharacters(in: .whitespaces)
            // A column the box cuts short shows the start of its heading and `…`, or only spaces.
            let isCut = starts[index] + widths[index] > inner.maxColumn
            let shown = text.hasSuffix("…") ? String(text.dropLast()) : text
            if !(text.hasPrefix(title) || isCut && title.hasPrefix(shown)) {
                problems.append(
                    "\(name): heading '\(title)' is not at column \(starts[index]): \(FrameCheck.describe(heading))")
            }
        }
        for row in [inner.minRow] + dataRows {
            let cells = Array(buffer.cells(inRow: row))
            var broken: [String] = []
            if cells[inner.minColumn - 1].text != vertical || cells[inner.maxColumn].text != vertical {
                broken.append("a box edge is overwritten")
            }
            for start in starts.dropFirst() where start < inner.maxColumn {
                if cells[start - 1].text != " " || cells[start - 1].isContinuation || cells[start].isContinuation {
                    broken.append("the gap before column \(start) holds \(FrameCheck.quote(cells[start - 1].text))")
                }
            }
            if !broken.isEmpty {
                problems.append(
                    "\(name) row \(row): \(broken.joined(separator: ", ")): \(FrameCheck.describe(cells))")
            }
        }
        return problems
    }
}
