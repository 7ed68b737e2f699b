import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct TextFieldTests {
    /// The terminal delivers a pasted `é` (decomposed), `👍🏽` or `🇯🇵` as one key per scalar;
    /// each merges with the character before it, and the cursor must follow.
    @Test(arguments: ["e\u{301}", "👍🏽", "🇯🇵", "👨‍👩‍👧", "a\u{200D}b", "\u{301}\u{301}"])
    func scalarsThatMergeIntoOneCharacterKeepTheCursorInside(typed: String) {
        var field = TextField("<")
        for scalar in typed.unicodeScalars { _ = field.handle(.character(Character(scalar))) }
        _ = field.handle(.character(">"))
        #expect(field.text == "<" + typed + ">")
        #expect(field.cursor == field.text.count)
        _ = field.handle(.home)
        for scalar in typed.unicodeScalars { _ = field.handle(.character(Character(scalar))) }
        #expect(field.text == typed + "<" + typed + ">")
        for _ in 0..<field.text.count { _ = field.handle(.delete) }
        while field.cursor > 0 { _ = field.handle(.backspace) }
        #expect(field.text.isEmpty)
    }
}
