import Foundation

/// Text and bytes built to break a terminal UI: escape sequences (CSI, OSC, DCS, C1), bidi
/// overrides and isolates, zero-width and other format characters, combining marks with
/// nothing to combine with, wide CJK and emoji sequences (whole and broken), C0 controls,
/// separators, unassigned and private-use scalars, box-drawing look-alikes, and random
/// scalars from every plane — all from a ``SeededRandom``, so a seed replays the same text.
struct HostileText {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// Pieces that each attack something specific.
    static let atoms: [String] =
        [
            // Escape sequences: clear screen, colours, window title, hyperlink, DCS, reset, C1 CSI.
            "\u{1B}[2J", "\u{1B}[31;1m", "\u{1B}[0m", "\u{1B}]0;title\u{07}", "\u{1B}]2;pwned\u{1B}\\",
            "\u{1B}]8;;https://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", "\u{1B}P+q544e\u{1B}\\", "\u{1B}c",
            "\u{1B}[?1049l", "\u{1B}[6n", "\u{1B}#8", "\u{9B}31m", "\u{9D}0;t\u{9C}", "\u{90}q\u{9C}", "\u{85}",
            // Bidi overrides, embeddings, isolates and marks.
            "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}",
            "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{202E}gnp.exe\u{202C}",
            // Zero-width and other invisible format characters, separators.
            "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{180E}", "\u{FFF9}x\u{FFFB}",
            "\u{E0001}", "\u{E0041}", "\u{2028}", "\u{2029}", "\u{3164}", "\u{115F}", "\u{034F}",
            // Combining marks (stacked, and at the start of a string), variation selectors.
            "\u{0301}", "\u{0336}\u{0336}\u{0336}", "\u{20DD}", "\u{FE0F}", "\u{FE0E}",
            "Z\u{0351}\u{0352}\u{0353}\u{0354}\u{0355}\u{0356}\u{0357}\u{0358}\u{0359}\u{035A}",
            // Wide text and emoji, whole and broken.
            "東京タワー", "한국어", "ｆｕｌｌ", "\u{2000B}", "👍🏽", "👨‍👩‍👧", "🇯🇵", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "❤️", "1️⃣",
            "🇯", "🏽", "\u{200D}👩", "a\u{200D}b", "1\u{200D}\u{E0041}",
            // C0 controls and DEL.
            "\t", "\n", "\r\n", "\u{0}", "\u{7F}", "\u{07}", "\u{08}", "\u{0B}", "\u{0C}", "\u{1A}",
            // Unassigned, private use, noncharacters, replacement.
            "\u{0378}", "\u{E000}", "\u{F8FF}", "\u{10FFFD}", "\u{FFFD}",
            // Look-alikes of the console's own chrome, quoting and format strings.
            "│", "╭─╮", "…", "▲", "'", "\"", "\\", "%s%n", "prefix:", "tag:", "=", " ",
        ] + [0xFFFF, 0xFDD0, 0x1FFFE].compactMap { Unicode.Scalar($0).map(String.init) }  // noncharacters

    /// A string of 1 to `maximumPieces` pieces: atoms, ASCII words, random scalars.
    mutating func string(maximumPieces: Int = 8) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...maximumPieces, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: text += random.pick(Self.atoms)
            case 5..<7: text += word()
            case 7..<9: text += String(String.UnicodeScalarView(randomScalars(Int.random(in: 1...4, using: &random))))
            default: text += String(repeating: random.pick(Self.atoms), count: Int.random(in: 2...20, using: &random))
            }
        }
        return text
    }

    /// A printable ASCII word.
    mutating func word() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789_-./:")
        return String((0..<Int.random(in: 1...10, using: &random)).map { _ in random.pick(letters) })
    }

    /// A string about `bytes` long (UTF-8): hostile pieces repeated with a counter, so it is
    /// not just one atom over and over.
    mutating func huge(bytes: Int) -> String {
        var text = ""
        var index = 0
        while text.utf8.count < bytes {
            text += string(maximumPieces: 4) + String(index)
            index += 1
        }
        return text
    }

    /// Random bytes: invalid UTF-8 (lone continuation bytes, overlong forms, surrogates,
    /// truncated sequences) mixed with the UTF-8 of hostile text.
    mutating func bytes(maximumCount: Int = 300) -> Data {
        var data = Data()
        let count = Int.random(in: 0...maximumCount, using: &random)
        while data.count < count {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: data.append(UInt8.random(in: 0...255, using: &random))
            case 1:
                data.append(
                    contentsOf: random.pick([
                        [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x80],
                    ]))
            default: data.append(contentsOf: Array(string(maximumPieces: 3).utf8))
            }
        }
        return data
    }

    /// Valid scalars from anywhere: ASCII and C0/C1, the BMP, the supplementary planes.
    mutating func randomScalars(_ count: Int) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        while scalars.count < count {
            let value: UInt32 =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: UInt32.random(in: 0...0xFF, using: &random)
                case 1: UInt32.random(in: 0x100...0xFFFF, using: &random)
                case 2: UInt32.random(in: 0x1_0000...0x3_FFFF, using: &random)
                default: UInt32.random(in: 0xE_0000...0x10_FFFF, using: &random)
                }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return scalars
    }
}
