extension Key {
    /// Parses the notation used in `keys.toml`: a single character (`q`, `G`, `/`, `界`), or a
    /// name, case-insensitive: `up`, `down`, `left`, `right`, `home`, `end`, `pgup`/`pageup`,
    /// `pgdn`/`pagedown`, `insert`, `delete`, `enter`/`return`, `esc`/`escape`, `backspace`,
    /// `tab`, `backtab`/`shift-tab`, `space`, `f1`–`f24`, `ctrl-x` (also `c-x`, `^x`).
    /// `nil` for anything else.
    package init?(notation: String) {
        if notation.count == 1, let character = notation.first {
            guard !character.isWhitespace || character == " ",
                TerminalText.sanitize(notation) == notation
            else { return nil }
            self = .character(character)
            return
        }
        let name = notation.lowercased()
        if let named = Self.names[name] {
            self = named
        } else if let letter = Self.controlLetter(in: name), let key = Key.ctrl(letter) {
            self = key
        } else if name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...24).contains(number),
            name.dropFirst().allSatisfy(\.isASCII)
        {
            self = .function(number)
        } else {
            return nil
        }
    }

    /// The canonical notation, which ``init(notation:)`` reads back.
    package var notation: String {
        switch self {
        case .character(" "): return "space"
        case .character(let character): return String(character)
        case .control(let letter): return "ctrl-\(letter)"
        case .function(let number): return "f\(number)"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .insert: return "insert"
        case .delete: return "delete"
        case .enter: return "enter"
        case .escape: return "esc"
        case .backspace: return "backspace"
        case .tab: return "tab"
        case .backTab: return "shift-tab"
        }
    }

    /// How help screens show the key: `↑`, `PgUp`, `Ctrl-C`, `Space`, `G`.
    package var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return TerminalText.sanitize(String(character))
        case .control(let letter): return "Ctrl-" + letter.uppercased()
        case .function(let number): return "F\(number)"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        }
    }

    private static let names: [String: Key] = [
        "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "insert": .insert, "ins": .insert, "delete": .delete, "del": .delete,
        "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "backspace": .backspace,
        "tab": .tab, "backtab": .backTab, "shift-tab": .backTab, "space": .character(" "),
    ]

    /// The letter of `ctrl-x`, `c-x` or `^x`.
    private static func controlLetter(in name: String) -> Character? {
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            return rest.count == 1 ? rest.first : nil
        }
        return nil
    }
}
