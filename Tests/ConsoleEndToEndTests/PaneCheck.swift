import Glibc

/// What a tmux pane (captured with `-e`) must look like whatever the file holds: no escape
/// sequence but the SGR attributes the console itself sets — with the monochrome theme no
/// colour at all, so a colour could only come from the content — no control character,
/// every row at most as wide as the window, and every row inside a box exactly as wide as
/// the window and ending on the box's right edge. Widths are the C library's `wcwidth` in
/// C.UTF-8, the measure tmux and curses use.
enum PaneCheck {
    /// The problems of `pane` (from `capture-pane -p -e`) in a `columns` × `rows` window.
    static func problems(in pane: String, columns: Int, rows: Int) -> [String] {
        var problems: [String] = []
        var plain = String.UnicodeScalarView()
        var scalars = pane.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\u{1B}" else {
                plain.append(scalar)
                continue
            }
            let body = scalars.dropFirst()
            guard scalars.first == "[", let end = body.firstIndex(where: { (0x40...0x7E).contains($0.value) }),
                scalars[end] == "m"
            else {
                problems.append(
                    "an escape sequence other than SGR: \(visible(String(String.UnicodeScalarView(scalars.prefix(12)))))"
                )
                continue
            }
            let parameters = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<end]))
            scalars = scalars[scalars.index(after: end)...]
            let colours = parameters.split(separator: ";").compactMap { Int($0) }.filter(isColour)
            if !colours.isEmpty { problems.append("a colour reached the terminal: \\e[\(parameters)m") }
        }
        let lines = String(plain).split(separator: "\n", omittingEmptySubsequences: false).prefix(rows)
        for (row, line) in lines.enumerated() {
            if line.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                problems.append("row \(row) holds a control character: \(visible(String(line)))")
            }
            let width = displayWidth(line)
            if width > columns { problems.append("row \(row) is \(width) cells wide: \(visible(String(line)))") }
            if line.hasPrefix("│") && (width != columns || !["│", "╮", "╯"].contains(line.last)) {
                problems.append("row \(row) breaks its box (\(width) cells): \(visible(String(line)))")
            }
        }
        if lines.first?.contains("CacheDeck") != true { problems.append("the header is gone: the screen moved") }
        return problems
    }

    /// SGR parameters that set a foreground or background colour.
    private static func isColour(_ parameter: Int) -> Bool {
        (30...38).contains(parameter) || (40...48).contains(parameter) || (90...97).contains(parameter)
            || (100...107).contains(parameter)
    }

    /// The C library's `wcwidth` (which the Glibc module does not import), found at run time.
    private static let wcwidth: (@convention(c) (wchar_t) -> Int32)? = dlsym(nil, "wcwidth").map {
        unsafeBitCast($0, to: (@convention(c) (wchar_t) -> Int32).self)
    }

    /// Cells `line` takes in a C.UTF-8 terminal (a scalar per cell if `wcwidth` is missing).
    static func displayWidth(_ line: Substring) -> Int {
        guard let wcwidth, let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else {
            return line.unicodeScalars.count
        }
        defer { freelocale(locale) }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return line.unicodeScalars.reduce(0) { $0 + max(0, Int(wcwidth(wchar_t(bitPattern: $1.value)))) }
    }

    /// `text` with everything outside printable ASCII written as `\u{…}`, for messages.
    private static func visible(_ text: String) -> String {
        text.unicodeScalars.map {
            (0x20..<0x7F).contains($0.value) ? String($0) : "\\u{\(String($0.value, radix: 16))}"
        }
        .joined()
    }
}
