import TerminalUI
import CacheCore

/// The confirmation dialog: what the action would remove, and the question.
enum ConfirmScreen {
    static func draw(_ dialog: ConfirmDialog, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions) {
        let pending = dialog.pending
        let impact = pending.impact
        let width = min(72, area.size.columns - 4)
        let inner = width - 4
        var lines: [(String, CellStyle)] = [
            (ActionText.title(pending.target, keys: impact.entries), CellStyle(.title)),
            ("", CellStyle(.dialog)),
            (figures(pending, options: options), CellStyle(.dialog, [.bold])),
        ]
        if !impact.sampleKeys.isEmpty {
            lines.append(("e.g. " + impact.sampleKeys.prefix(3).joined(separator: ", "), CellStyle(.dialog)))
        }
        lines.append(("", CellStyle(.dialog)))
        switch pending.confirmation {
        case .yesOrNo:
            lines.append(("\(question(pending.target)) [y/N]", CellStyle(.bad)))
            lines.append(("", CellStyle(.dialog)))
            lines.append((hint(pending.target), CellStyle(.keyHint)))
        case .typeName(let name):
            lines.append(("Type '\(name)' to confirm (anything else cancels):", CellStyle(.bad)))
            lines.append(("", CellStyle(.input)))
            lines.append(("", CellStyle(.dialog)))
            lines.append(("Enter confirms · Esc cancels · the default is No", CellStyle(.keyHint)))
        }
        if let warning = pending.isUndoable ? pending.diskFullWarning : nil {
            lines.append((warning, CellStyle(.bad)))
        } else {
            lines.append((undo(pending.target), CellStyle(.muted)))
        }
        let height = lines.count + 2
        let box = Rect(
            column: area.minColumn + (area.size.columns - width) / 2,
            row: area.minRow + max(0, (area.size.rows - height) / 2), columns: width, rows: height)
        buffer.fill(box, style: CellStyle(.dialog))
        buffer.drawBox(
            box, style: CellStyle(.dialogBorder), border: options.border, title: "Confirm",
            titleStyle: CellStyle(.dialogBorder, [.bold]))
        for (offset, line) in lines.enumerated() {
            let point = Point(column: box.minColumn + 2, row: box.minRow + 1 + offset)
            if line.1.role == .input {
                drawAnswer(dialog.answer, at: point, width: inner, into: &buffer)
                continue
            }
            buffer.put(line.0, at: point, style: line.1, maxWidth: inner, truncation: .ellipsis(options.ellipsis))
        }
    }

    /// What the action would do: entries, bytes and hit share removed (keys and bytes for a
    /// key deletion); for an import, the
    /// entries new and replacing (those go to the trash) and the bytes written.
    private static func figures(_ pending: PendingAction, options: RenderOptions) -> String {
        let impact = pending.impact
        if let imported = pending.importing?.impact {
            return "\(Formatting.count(imported.new)) new\(options.dot)\(Formatting.count(imported.replacing)) replacing "
                + "(\(Formatting.bytes(imported.replacedBytes)) to the trash)\(options.dot)"
                + "\(Formatting.bytes(imported.bytes))"
        }
        if case .deleteKeys = pending.target {
            return "\(Formatting.count(impact.entries)) \(impact.entries == 1 ? "key" : "keys")\(options.dot)"
                + Formatting.bytes(impact.bytes)
        }
        return "\(Formatting.entries(impact.entries))\(options.dot)\(Formatting.bytes(impact.bytes))\(options.dot)"
            + (impact.recentHitShare.map { "\(TimeText.percent($0)) of recent hits" }
                ?? "hits unknown (not recorded per entry)")
    }

    /// The y/N question, in the action's own words.
    private static func question(_ target: AdminTarget) -> String {
        switch target {
        case .expiry: "Change their expiry?"
        case .importEntries: "Import them?"
        case .deleteKeys: "Delete them?"
        default: "Remove them?"
        }
    }

    /// The keys of a yes/no question; a sweep's `k` switches between keeping and removing the
    /// expired entries still inside their stale window (measured again).
    private static func hint(_ target: AdminTarget) -> String {
        guard case .sweep(_, let keepingStaleWindow) = target else { return "y runs it · any other key cancels (No)" }
        return "y runs it · k "
            + (keepingStaleWindow ? "removes the stale window too" : "keeps the stale window")
            + " · other keys cancel"
    }

    /// How the action can be undone, in its own words.
    private static func undo(_ target: AdminTarget) -> String {
        switch target {
        case .sweep: "Sweeps cannot be undone (only expired entries are removed)."
        case .expiry: "Undo with u in the audit view: the old expiry times are kept 7 days."
        case .invalidate, .clear, .clearAll: "Undo with u in the audit view: the trash keeps them 7 days."
        case .importEntries: "Undo with u in the audit view: the entries it replaces are kept 7 days."
        case .deleteKeys: "Undo with u in the audit view: each key is kept 7 days (DUMP, with its expiry)."
        }
    }

    private static func drawAnswer(_ field: TextField, at point: Point, width: Int, into buffer: inout ScreenBuffer) {
        buffer.fill(Rect(origin: point, size: Size(columns: width, rows: 1)), style: CellStyle(.input))
        let column = buffer.put(
            "> " + field.text, at: point, style: CellStyle(.input), maxWidth: width - 1)
        buffer.put(" ", at: Point(column: column, row: point.row), style: CellStyle(.input, [.reverse]))
    }
}
