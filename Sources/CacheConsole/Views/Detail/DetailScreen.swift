import TerminalUI
/// One entry: its metadata, then its value (pretty JSON wrapped to the width, or a hex dump)
/// in a scrolling box.
enum DetailScreen {
    /// Metadata lines above the value.
    private static let metadataRows = 6

    /// Value lines that fit at `size`.
    static func valueHeight(for size: Size) -> Int {
        max(1, ConsoleLayout.body(size).size.rows - metadataRows - 2)
    }

    /// The value's lines, wrapped to the box at terminal width `width` (as the view kept them
    /// when it wrapped for that width).
    static func valueLines(_ view: DetailView, width: Int) -> [String] {
        valueLayout(view, width: width).lines
    }

    /// ``valueLines(_:width:)`` and, for each line, the indent characters it starts with when
    /// it continues the line before (a wrap), `nil` when it starts a line of the value.
    static func valueLayout(_ view: DetailView, width: Int) -> (lines: [String], continuations: [Int?]) {
        if let wrapped = view.wrapped, wrapped.width == width { return (wrapped.lines, wrapped.continuations) }
        guard let snapshot = view.snapshot else { return ([], []) }
        let room = max(8, width - 4)
        switch snapshot.value {
        case .json(let text, let isTruncated):
            var lines: [String] = []
            var continuations: [Int?] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let pieces = wrap(String(line), width: room)
                let indent = continuationIndent(of: TerminalText.sanitize(String(line)), width: room)
                lines += pieces
                continuations += [nil] + Array(repeating: indent, count: pieces.count - 1)
            }
            return isTruncated ? (lines + ["… (cut at 64 KiB)"], continuations + [nil]) : (lines, continuations)
        case .hexDump(let lines, let isTruncated):
            let all = lines + (isTruncated ? ["… (the value is longer)"] : [])
            return (all, Array(repeating: nil, count: all.count))
        }
    }

    /// The indent of the pieces after the first when `line` (sanitized) is wrapped to `width`:
    /// the line's own, plus two.
    private static func continuationIndent(of line: String, width: Int) -> Int {
        min(width / 2, line.prefix { $0 == " " }.count + 2)
    }

    /// `line` cut into pieces of at most `width` cells, after a space when one falls in the
    /// second half of a piece (continuations indented like the line, plus two).
    static func wrap(_ line: String, width: Int) -> [String] {
        let safe = TerminalText.sanitize(line)
        guard TerminalText.displayWidth(of: safe) > width else { return [safe] }
        let indent = String(repeating: " ", count: continuationIndent(of: safe, width: width))
        var pieces: [String] = []
        var rest = Array(safe)
        var prefix = ""
        while !rest.isEmpty {
            let room = width - prefix.count
            var count = 0
            var used = 0
            while count < rest.count {
                let cells = TerminalText.displayWidth(of: String(rest[count]))
                guard used + cells <= room || count == 0 else { break }
                used += cells
                count += 1
            }
            if count < rest.count, let space = rest[..<count].lastIndex(of: " "), space >= count / 2 {
                count = space + 1
            }
            pieces.append(prefix + String(rest[..<count]))
            rest.removeFirst(count)
            prefix = indent
        }
        return pieces
    }

    static func draw(
        _ view: DetailView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        guard let snapshot = view.snapshot else {
            let text = view.isGone ? "This entry no longer exists." : "Reading the entry\(options.ellipsis)"
            buffer.put(" " + text, at: area.origin, style: CellStyle(view.isGone ? .warn : .muted))
            return
        }
        let entry = snapshot.entry
        let now = model.now
        let half = area.size.columns / 2
        func fact(
            _ name: String, _ value: String, row: Int, column: Int = 0, wide: Bool = false, style: CellStyle = .text
        ) {
            let point = Point(column: area.minColumn + column, row: area.minRow + row)
            let end = buffer.put(" " + TerminalText.pad(name, toWidth: 12), at: point, style: CellStyle(.muted))
            let limit = wide || column > 0 ? area.maxColumn : area.minColumn + half
            buffer.put(
                value, at: Point(column: end, row: point.row), style: style, maxWidth: limit - end - 1,
                truncation: .ellipsis(options.ellipsis))
        }
        fact("Key", entry.label ?? entry.key, row: 0, wide: true, style: CellStyle(.title))
        fact("Namespace", snapshot.namespace, row: 1)
        fact("Version", snapshot.version.isEmpty ? "–" : snapshot.version, row: 1, column: half)
        fact("Size", "\(Formatting.bytes(entry.size)) (value \(Formatting.count(snapshot.valueBytes)) B)", row: 2)
        let lag = snapshot.readsLag ? TimeText.readsLag : ""
        fact("Hits", entry.hits.map { Formatting.count($0) + lag } ?? "not recorded", row: 2, column: half)
        fact("Created", entry.createdAt.map { TimeText.ago($0, now: now) } ?? "–", row: 3)
        fact("Accessed", TimeText.accessed(entry, now: now) + lag, row: 3, column: half)
        let expiry = TimeText.expiry(entry.expiresAt, now: now)
        fact("Expires", expiry, row: 4, style: CellStyle(expiry == "expired" ? .bad : .text))
        fact("Stale until", snapshot.staleUntil.map { TimeText.expiry($0, now: now) } ?? "–", row: 4, column: half)
        fact(
            "Tags", entry.tags.isEmpty ? "–" : entry.tags.joined(separator: ", "), row: 5,
            wide: snapshot.sortValue == nil, style: CellStyle(.tag))
        if let sortValue = snapshot.sortValue { fact("Sort value", String(sortValue), row: 5, column: half) }
        let box = Rect(
            column: area.minColumn, row: area.minRow + metadataRows, columns: area.size.columns,
            rows: area.size.rows - metadataRows)
        let lines = valueLines(view, width: area.size.columns)
        let kind =
            (snapshot.valueKind ?? (snapshot.value.isHexDump ? "hex dump" : "JSON")) + (view.isGone ? "\(options.dot)gone since read" : "")
        let position =
            lines.isEmpty
            ? ""
            : "\(options.dot)lines \(view.scroll + 1)–\(min(lines.count, view.scroll + box.size.rows - 2)) of \(lines.count)"
        // A value cut for display is searched only as far as it is shown, and the count says so.
        let shownPart = snapshot.value.isTruncated ? " in the part shown" : ""
        let found = view.search.map { "\(options.dot)\($0.summary)\(shownPart)" } ?? ""
        buffer.drawBox(
            box, style: CellStyle(.border), border: options.border,
            title: "Value\(options.dot)\(kind)\(position)\(found)")
        let inner = box.insetBy(1)
        let margin = snapshot.value.isHexDump ? "" : " "
        for (offset, line) in lines.dropFirst(view.scroll).prefix(inner.size.rows).enumerated() {
            let point = Point(column: inner.minColumn, row: inner.minRow + offset)
            buffer.put(margin + line, at: point, maxWidth: inner.size.columns)
            if let search = view.search {
                drawMatches(of: search, onLine: view.scroll + offset, text: margin + line, margin: margin.count,
                    at: point, width: inner.size.columns, into: &buffer)
            }
        }
    }

    /// Marks the matches on value line `line` (drawn as `text` at `point`): the current one as
    /// the selection, the others as marked.
    private static func drawMatches(
        of search: ValueSearch, onLine line: Int, text: String, margin: Int, at point: Point, width: Int,
        into buffer: inout ScreenBuffer
    ) {
        let characters = Array(text)
        for (index, match) in search.matches.enumerated() {
            // A match the wrap cut in two is marked on each row it covers.
            for piece in [match] + match.continuation where piece.line == line {
                let start = margin + piece.start
                guard start + piece.length <= characters.count else { continue }
                let column = point.column + TerminalText.displayWidth(of: String(characters[..<start]))
                let limit = point.column + width - column
                guard limit > 0 else { continue }
                buffer.put(
                    String(characters[start..<start + piece.length]), at: Point(column: column, row: point.row),
                    style: CellStyle(index == search.current ? .selection : .marked), maxWidth: limit)
            }
        }
    }
}
