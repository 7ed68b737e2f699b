import Foundation

/// Text safety for the terminal. Keys and values are untrusted bytes: everything that could
/// move the cursor, change colours, reorder text or hide characters is shown as a visible
/// escape instead (`\e`, `\x07`, `\u{202E}`, `\xFF` for invalid UTF-8), and widths are
/// counted per grapheme (CJK and emoji 2, combining marks 0) so columns stay aligned.
///
/// ``ScreenBuffer`` sanitizes everything it is given, so no control byte reaches the terminal
/// whichever path text takes; use these functions to measure and lay out text beforehand.
package enum TerminalText {
    /// `text` with every unsafe character replaced by its visible escape.
    package static func sanitize(_ text: String) -> String {
        var result = ""
        DisplayScanner.scan(text) { unit in
            result += unit.text
            return true
        }
        return result
    }

    /// The ASCII character a terminal without Unicode shows for the punctuation and symbols
    /// the console draws (`–` as `-`, `…` as `.`, `›` as `>`); `nil` for anything else.
    package static func asciiFallback(_ text: String) -> Character? {
        asciiFallbacks[text]
    }

    private static let asciiFallbacks: [String: Character] = [
        "–": "-", "—": "-", "−": "-", "…": ".", "·": ".", "•": "*", "›": ">", "‹": "<", "→": ">", "←": "<",
        "↑": "^", "↓": "v", "▲": "^", "▼": "v", "●": "*", "○": "o", "≈": "~", "×": "x", "“": "\"", "”": "\"",
        "‘": "'", "’": "'", "│": "|", "─": "-", "█": "#", "░": ".", "▏": "|",
    ]

    /// `bytes` decoded as UTF-8 and sanitized; each byte that is not part of a valid UTF-8
    /// sequence is shown as `\xNN`.
    package static func sanitize(_ bytes: Data) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return sanitize(text) }
        var result = ""
        var run = String.UnicodeScalarView()
        var decoder = UTF8Validator(bytes)
        while let next = decoder.next() {
            switch next {
            case .scalar(let scalar):
                run.append(scalar)
            case .invalid(let byte):
                result += sanitize(String(run))
                run = String.UnicodeScalarView()
                result += DisplayScanner.escape(byte: byte)
            }
        }
        return result + sanitize(String(run))
    }

    /// The number of terminal cells `text` occupies once sanitized.
    package static func displayWidth(of text: String) -> Int {
        var width = 0
        DisplayScanner.scan(text) { unit in
            width += unit.width
            return true
        }
        return width
    }

    /// `text`, sanitized, cut to at most `width` cells; when it had to be cut, it ends with
    /// `ellipsis`. Only the part that fits is examined, so a 100 KB key costs what it shows.
    package static func truncate(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        fit(text, width: width, ellipsis: ellipsis).text
    }

    /// `text`, sanitized and truncated with `ellipsis` if needed, padded with spaces to exactly
    /// `width` cells (a dropped wide character leaves room for one more space).
    package static func pad(
        _ text: String, toWidth width: Int, alignment: TextAlignment = .leading, ellipsis: String = "…"
    ) -> String {
        let fitted = fit(text, width: width, ellipsis: ellipsis)
        let room = max(0, width - fitted.width)
        switch alignment {
        case .leading:
            return fitted.text + String(repeating: " ", count: room)
        case .trailing:
            return String(repeating: " ", count: room) + fitted.text
        case .center:
            let before = room / 2
            return String(repeating: " ", count: before) + fitted.text
                + String(repeating: " ", count: room - before)
        }
    }

    /// The sanitized text fitting `width` cells and its width.
    static func fit(_ text: String, width: Int, ellipsis: String) -> (text: String, width: Int) {
        guard width > 0 else { return ("", 0) }
        var units: [DisplayUnit] = []
        var usedWidth = 0
        var overflowed = false
        DisplayScanner.scan(text) { unit in
            guard usedWidth + unit.width <= width else {
                overflowed = true
                return false
            }
            units.append(unit)
            usedWidth += unit.width
            return true
        }
        let marker = sanitize(ellipsis)
        let markerWidth = displayWidth(of: marker)
        guard overflowed, markerWidth <= width else {
            return (units.map(\.text).joined(), usedWidth)
        }
        while usedWidth + markerWidth > width, let last = units.popLast() {
            usedWidth -= last.width
        }
        return (units.map(\.text).joined() + marker, usedWidth + markerWidth)
    }
}

/// Where padded text sits in its column.
package enum TextAlignment: Sendable, Hashable {
    /// Text first, then spaces.
    case leading
    /// Spaces split evenly around the text (the extra one after it).
    case center
    /// Spaces first, then text.
    case trailing
}
