import CacheConsole
import TerminalUI
import Foundation
import Testing

@Suite struct TextSafetyTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[2J\u{1B}]0;pwned\u{07}", "\\e[2J\\e]0;pwned\\x07"),
        ("a\tb\nc\r\nd\u{0}e\u{7F}", "a\\tb\\nc\\r\\nd\\0e\\x7F"),
        ("\u{9B}31m", "\\u{009B}31m"),
        ("abc\u{202E}fed\u{2066}x\u{2069}\u{200F}", "abc\\u{202E}fed\\u{2066}x\\u{2069}\\u{200F}"),
        ("a\u{200B}b\u{FEFF}c\u{00AD}d\u{2028}e", "a\\u{200B}b\\u{FEFF}c\\u{00AD}d\\u{2028}e"),
        ("\u{301}e", "\\u{0301}e"),
        ("a\u{200D}b", "a\\u{200D}b"),
        ("name\u{3164}", "name\\u{3164}"),
        ("\u{E0001}", "\\u{E0001}"),
        ("1\u{200D}\u{E0041}x", "1\\u{200D}\\u{E0041}x"),
        ("4\u{200D}🏽", "4\\u{200D}🏽"),
    ])
    func sanitizeShowsUnsafeCharactersAsVisibleEscapes(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func sanitizeKeepsPrintableTextIncludingCombiningMarksAndEmojiSequences() {
        for text in ["café", "e\u{301}", "日本語", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "C:\\path"] {
            #expect(TerminalText.sanitize(text) == text)
        }
    }

    @Test func sanitizedTextHoldsNoControlOrFormatCharacter() {
        let hostile =
            (0..<0x300).compactMap(Unicode.Scalar.init).map(String.init).joined()
            + "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{200B}\u{200C}\u{200E}\u{2060}"
        for scalar in TerminalText.sanitize(hostile).unicodeScalars {
            #expect(
                ![.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory))
        }
    }

    @Test func invalidUTF8BytesAreShownAsHexEscapes() {
        let bytes: [UInt8] = [
            0x61, 0xFF, 0x62, 0xC3, 0x28, 0xE2, 0x82, 0xED, 0xA0, 0x80, 0xC0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x1B, 0x5B,
            0xF0, 0x9F, 0x98, 0x80, 0xE2,
        ]
        #expect(
            TerminalText.sanitize(Data(bytes))
                == "a\\xFFb\\xC3(\\xE2\\x82\\xED\\xA0\\x80\\xC0\\x80\\xF4\\x90\\x80\\x80\\e[😀\\xE2")
        #expect(TerminalText.sanitize(Data("valid \u{7}ü".utf8)) == "valid \\x07ü")
    }

    @Test(arguments: [
        ("abc", 3), ("日本語", 6), ("e\u{301}", 1), ("👍", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1),
        ("1️⃣", 2), ("Ａ", 2), ("👍🏽", 2), ("a🏽", 3), ("🏽", 2), ("\u{1B}", 2), ("a\u{202E}", 9), ("", 0),
    ])
    func displayWidthCountsCellsPerGrapheme(text: String, width: Int) {
        #expect(TerminalText.displayWidth(of: text) == width)
    }

    @Test func truncateRespectsWidthAndNeverSplitsAGraphemeOrEscape() {
        #expect(TerminalText.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(TerminalText.truncate("hello", toWidth: 5) == "hello")
        #expect(TerminalText.truncate("日本語テキスト", toWidth: 6) == "日本…")
        #expect(TerminalText.truncate("ab\u{1B}cd", toWidth: 4) == "ab…")
        #expect(TerminalText.truncate("hello", toWidth: 0) == "")
        #expect(TerminalText.truncate("hello", toWidth: 2, ellipsis: "...") == "he")
        #expect(TerminalText.truncate("hello world", toWidth: 8, ellipsis: "...") == "hello...")
    }

    @Test func padAlignsToAnExactWidth() {
        #expect(TerminalText.pad("ab", toWidth: 5) == "ab   ")
        #expect(TerminalText.pad("ab", toWidth: 5, alignment: .trailing) == "   ab")
        #expect(TerminalText.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(TerminalText.pad("日本語", toWidth: 5) == "日本…")
        #expect(TerminalText.pad("日本語", toWidth: 4) == "日… ")
        #expect(TerminalText.pad("x\u{202E}y", toWidth: 12) == "x\\u{202E}y  ")
    }

    @Test func hundredKilobyteHostileKeysGiveBoundedAlignedColumns() {
        let keys = [
            String(repeating: "界", count: 50_000),
            String(repeating: "\u{1B}[31m", count: 20_000),
            String(repeating: "e\u{301}", count: 50_000),
            String(repeating: "\u{202E}", count: 100_000),
            String(repeating: "a", count: 100_000),
            "short",
        ]
        var buffer = ScreenBuffer(size: Size(columns: 30, rows: keys.count))
        for (row, key) in keys.enumerated() {
            let cell = TerminalText.pad(key, toWidth: 20)
            #expect(TerminalText.displayWidth(of: cell) == 20)
            buffer.put(cell, at: Point(column: 0, row: row))
            buffer.put("|", at: Point(column: 20, row: row))
        }
        for line in buffer.textSnapshot().split(separator: "\n") {
            let beforeBar = line.prefix { $0 != "|" }
            #expect(TerminalText.displayWidth(of: String(beforeBar)) == 20)
            #expect(line.hasSuffix("|"))
        }
        // The work is proportional to the width shown, not to the key: a thousand 20-cell
        // cuts of 100 KB keys would take minutes if each scanned the whole key.
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for index in 0..<1000 { _ = TerminalText.pad(keys[index % keys.count], toWidth: 20) }
        }
        #expect(elapsed < .seconds(5))
    }
}
