@testable import CacheConsole
import TerminalUI

/// What every rendered frame must satisfy, whatever the data: nothing in any cell that a
/// terminal would take as a control (C0, C1, DEL, format, separators, bidi), every cell one
/// grapheme of the width it claims, wide graphemes followed by their continuation cell,
/// every row exactly as wide as the screen, and boxes closed on both sides.
enum FrameCheck {
    /// The problems in `buffer`, one line each; empty when the frame is sound.
    static func problems(in buffer: ScreenBuffer, glyphs: GlyphSet) -> [String] {
        var problems: [String] = []
        var verdicts: [Cell: String?] = [:]  // borders and blanks repeat: judge each text once
        let vertical = glyphs == .unicode ? "│" : "|"
        let rightEdges: Set<String> = glyphs == .unicode ? ["│", "╮", "╯"] : ["|", "+"]
        for row in 0..<buffer.size.rows {
            let cells = Array(buffer.cells(inRow: row))
            var width = 0
            for (column, cell) in cells.enumerated() {
                if cell.width == 1, cell.text.utf8.count == 1, let byte = cell.text.utf8.first,
                    (0x20..<0x7F).contains(byte)
                {
                    width += 1  // printable ASCII: nothing more to check
                    continue
                }
                let verdict: String?
                if let known = verdicts[cell] {
                    verdict = known
                } else {
                    verdict = problem(with: cell)
                    verdicts[cell] = verdict
                }
                if let problem = verdict ?? neighbourProblem(with: cell, at: column, in: cells) {
                    problems.append("row \(row), column \(column): \(problem); the row is \(describe(cells))")
                }
                width += cell.width
            }
            if width != buffer.size.columns {
                problems.append("row \(row) is \(width) cells wide, not \(buffer.size.columns): \(describe(cells))")
            }
            // A body row that starts on a box's left edge ends on a right edge (or corner, where
            // boxes stack): nothing pushed the border out or overwrote it.
            if row >= 2, row < buffer.size.rows - 1, cells.first?.text == vertical,
                !rightEdges.contains(cells.last?.text ?? "")
            {
                problems.append("row \(row) opens a box but does not close it: \(describe(cells))")
            }
        }
        return problems
    }

    /// What is wrong with `cell` wherever it is, if anything: its text must be one safe
    /// grapheme exactly as wide as the cell claims (measured by the console and, where it is
    /// beyond doubt, independently), or empty for a continuation cell.
    private static func problem(with cell: Cell) -> String? {
        if cell.isContinuation {
            return cell.text.isEmpty ? nil : "a continuation cell holds \(quote(cell.text))"
        }
        guard cell.text.count == 1 else { return "the cell holds \(cell.text.count) graphemes: \(quote(cell.text))" }
        if let scalar = unsafeScalar(in: cell.text) {
            return "the cell holds U+\(String(scalar.value, radix: 16, uppercase: true)) in \(quote(cell.text))"
        }
        guard (1...2).contains(cell.width), TerminalText.displayWidth(of: cell.text) == cell.width,
            expectedWidth(of: cell.text).map({ $0 == cell.width }) ?? true
        else {
            return "\(quote(cell.text)) claims width \(cell.width)"
        }
        return nil
    }

    /// What is wrong with `cell` at `column` of `cells` given its neighbours: a wide cell is
    /// followed by a continuation cell, and a continuation cell follows a wide one.
    private static func neighbourProblem(with cell: Cell, at column: Int, in cells: [Cell]) -> String? {
        if cell.isContinuation && (column == 0 || cells[column - 1].width != 2) {
            return "a continuation cell follows no wide cell"
        }
        if cell.width == 2 && (column + 1 >= cells.count || !cells[column + 1].isContinuation) {
            return "wide \(quote(cell.text)) has no continuation cell"
        }
        return nil
    }

    /// The width of a grapheme starting with a character whose width no terminal doubts,
    /// known here independently of the console's tables: 2 for the CJK, Hangul, fullwidth
    /// and supplementary ideographic blocks and for emoji presentation, 1 below U+1100 (bar
    /// emoji asking for emoji presentation); `nil` for everything else, and for any grapheme
    /// asking for text presentation (U+FE0E), whose width terminals disagree on.
    static func expectedWidth(of text: String) -> Int? {
        guard let first = text.unicodeScalars.first, !text.unicodeScalars.contains("\u{FE0E}") else { return nil }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA48C,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF01...0xFF60, 0x2_0000...0x2_FFFD, 0x3_0000...0x3_FFFD,
        ]
        if wide.contains(where: { $0.contains(first.value) }) || first.properties.isEmojiPresentation { return 2 }
        if first.value < 0x1100 && !(first.properties.isEmoji && text.unicodeScalars.contains("\u{FE0F}")) {
            return 1
        }
        return nil
    }

    /// The first scalar of `text` a terminal must not receive: controls (C0, C1, DEL), format
    /// characters (bidi, zero-width, …; the zero-width joiner and tag characters only inside
    /// an emoji sequence), line and paragraph separators, surrogates and unassigned scalars,
    /// an emoji modifier (skin tone) hidden behind something it does not modify, and — as the
    /// cell's first scalar — marks and other invisible characters that would join the cell to
    /// its left.
    static func unsafeScalar(in text: String) -> Unicode.Scalar? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first else { return nil }
        let emojiBase = first.value > 0x7F && first.properties.isEmoji
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) { return scalar }
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
                return scalar
            case .format:
                let joiner = value == 0x200D || (0xE0020...0xE007F).contains(value)
                if index == 0 || !joiner || !emojiBase { return scalar }
            case .nonspacingMark, .enclosingMark:
                if index == 0 { return scalar }
            default:
                if index == 0 && scalar.properties.isDefaultIgnorableCodePoint { return scalar }
                let modifiesBase = index > 0 && scalars[index - 1].properties.isEmojiModifierBase
                if index > 0 && scalar.properties.isEmojiModifier && !modifiesBase { return scalar }
            }
        }
        return nil
    }

    /// `text` quoted for a message: printable ASCII and BMP letters, digits, punctuation and
    /// symbols as they are, every other scalar (controls, marks, format characters, emoji …)
    /// as `\u{…}`, so a failure report can neither garble the terminal nor hide anything.
    static func quote(_ text: String) -> String {
        let shown = text.unicodeScalars.map { scalar -> String in
            let visible: Bool =
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .otherLetter, .decimalNumber, .otherNumber,
                    .otherPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .mathSymbol,
                    .currencySymbol, .modifierSymbol, .otherSymbol, .connectorPunctuation, .initialPunctuation,
                    .finalPunctuation, .spaceSeparator:
                    scalar.value < 0x1_0000 && !scalar.properties.isDefaultIgnorableCodePoint
                default: false
                }
            return visible && scalar.value != 0x5C ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
        }
        return "\"" + shown.joined() + "\""
    }

    /// A row for a message: its cells' text, quoted, cut to 300 characters.
    static func describe(_ cells: [Cell]) -> String {
        let text = quote(cells.map(\.text).joined())
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
