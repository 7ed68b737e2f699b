/// One piece of terminal-safe output: a printable grapheme, or the visible escape that stands
/// for a character the terminal must never receive.
struct DisplayUnit: Equatable {
    /// The text to draw: one grapheme cluster, or an escape such as `\e` (ASCII only).
    var text: String
    /// Cells it occupies: 1 or 2 for a grapheme, the character count for an escape.
    var width: Int
    /// Whether this is an escape (drawn one ASCII character per cell).
    var isEscape: Bool
}

/// Splits text into ``DisplayUnit``s: grapheme clusters with their display width, and visible
/// escapes for control characters, bidi and other invisible format characters, separators,
/// unassigned scalars and combining marks with nothing to combine with. An emoji modifier
/// (skin tone) that follows no emoji it can modify is a unit of its own, so it shows.
enum DisplayScanner {
    /// Calls `body` with each unit of `text` in order while it returns `true`; stops early
    /// otherwise, so the work is proportional to what the caller consumes.
    static func scan(_ text: String, _ body: (DisplayUnit) -> Bool) {
        for character in text {
            if character.utf8.count == 1, let byte = character.utf8.first, byte >= 0x20, byte < 0x7F {
                guard body(DisplayUnit(text: String(character), width: 1, isEscape: false)) else { return }
                continue
            }
            guard scanCluster(character.unicodeScalars, body) else { return }
        }
    }

    /// The visible escape for one scalar: `\e`, `\t`, `\n`, `\r`, `\0`, `\xNN` for other C0
    /// controls and DEL, `\u{XXXX}` for everything else.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x00: return "\\0"
        case 0x01..<0x20, 0x7F: return escape(byte: UInt8(scalar.value))
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
        }
    }

    /// The visible escape for a byte that is not valid UTF-8: `\xNN`.
    static func escape(byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "\\x" + (hex.count == 1 ? "0" : "") + hex
    }

    private enum ScalarKind {
        case printable
        case combining
        case emojiJoiner
        case emojiModifier
        case unsafe
    }

    private static func kind(of scalar: Unicode.Scalar) -> ScalarKind {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return .unsafe }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate:
            return .unsafe
        case .format:
            // The zero-width joiner and tag characters build emoji sequences; all other format
            // characters (bidi controls, zero-width spaces, BOM, ...) are escaped.
            return value == 0x200D || (0xE0020...0xE007F).contains(value) ? .emojiJoiner : .unsafe
        case .nonspacingMark, .enclosingMark:
            return .combining
        default:
            if properties.isDefaultIgnorableCodePoint { return .unsafe }
            return properties.isEmojiModifier ? .emojiModifier : .printable
        }
    }

    /// Emits one grapheme cluster; returns `false` once `body` asks to stop.
    private static func scanCluster(
        _ scalars: Character.UnicodeScalarView, _ body: (DisplayUnit) -> Bool
    ) -> Bool {
        var pending = String.UnicodeScalarView()
        func flush() -> Bool {
            guard !pending.isEmpty else { return true }
            let unit = DisplayUnit(text: String(pending), width: width(of: pending), isEscape: false)
            pending = String.UnicodeScalarView()
            return body(unit)
        }
        for scalar in scalars {
            switch kind(of: scalar) {
            case .printable:
                pending.append(scalar)
                continue
            case .combining where !pending.isEmpty:
                pending.append(scalar)
                continue
            case .emojiJoiner where pending.first.map(isPictographic) == true:
                // Joiners and tags only continue a pictograph; after a digit, `#` or `*` (which
                // are emoji too, for keycaps) they would hide behind it.
                pending.append(scalar)
                continue
            case .emojiModifier:
                if pending.last?.properties.isEmojiModifierBase != true {
                    guard flush() else { return false }
                }
                pending.append(scalar)
                continue
            case .combining, .emojiJoiner, .unsafe:
                let text = escape(scalar)
                guard flush(), body(DisplayUnit(text: text, width: text.count, isEscape: true)) else {
                    return false
                }
            }
        }
        return flush()
    }

    /// Whether `scalar` is an emoji beyond ASCII (a pictograph that can start a sequence).
    private static func isPictographic(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji
    }

    /// Cells a printable cluster occupies: 2 for East Asian wide characters and emoji
    /// presentation (or a text-default emoji with U+FE0F), 1 otherwise.
    private static func width(of scalars: String.UnicodeScalarView) -> Int {
        guard let base = scalars.first else { return 0 }
        if isEastAsianWide(base.value) { return 2 }
        let selectors = scalars.dropFirst().lazy.map(\.value)
        if base.properties.isEmojiPresentation { return selectors.contains(0xFE0E) ? 1 : 2 }
        if base.properties.isEmoji && selectors.contains(0xFE0F) { return 2 }
        return 1
    }
}
