import TerminalUI
/// A one-line text input: the filter, the command line, a confirmation answer.
package struct TextField: Sendable, Hashable {
    /// The text typed so far.
    package internal(set) var text: String
    /// The cursor, as a character offset into ``text``.
    package internal(set) var cursor: Int

    /// A field holding `text` with the cursor at its end.
    package init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// What a key did to the field.
    enum Outcome {
        /// The key edited the field or moved the cursor.
        case edited
        /// Enter.
        case submitted
        /// Esc.
        case cancelled
        /// The field has no use for the key.
        case ignored
    }

    /// Applies an editing key: characters insert, Backspace/Delete erase, ←/→/Home/End move,
    /// Ctrl-U clears, Ctrl-W erases a word, Enter submits, Esc cancels.
    mutating func handle(_ key: Key) -> Outcome {
        var characters = Array(text)
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return .edited }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return .edited }
            characters.remove(at: cursor)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("w"):
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .enter: return .submitted
        case .escape: return .cancelled
        default: return .ignored
        }
        text = String(characters)
        // Keys arrive one scalar at a time, so an inserted combining mark, skin tone or second
        // half of a flag merges with the character before it: count the cursor again.
        cursor = min(String(characters.prefix(cursor)).count, text.count)
        return .edited
    }

    /// Replaces the text, cursor at the end.
    mutating func set(_ newText: String) {
        text = newText
        cursor = newText.count
    }
}
