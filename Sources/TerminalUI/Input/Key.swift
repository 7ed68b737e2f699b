/// A key as the console sees it, whatever terminal produced it. `CursesTerminal` translates
/// curses key codes into this type; ``KeyMap`` binds it to actions.
package enum Key: Hashable, Sendable {
    /// A printable character, including space and wide characters (`G` and `g` differ).
    case character(Character)
    /// Ctrl with a letter, lowercase `a`–`z` (see ``ctrl(_:)`` for the letters terminals send
    /// as other keys).
    case control(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// Enter or Return.
    case enter
    /// Escape.
    case escape
    /// Backspace.
    case backspace
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// A function key, F1 upwards.
    case function(Int)

    /// Ctrl with `letter` as terminals deliver it: Ctrl-H, Ctrl-I, Ctrl-J, Ctrl-M and Ctrl-[
    /// send the same bytes as Backspace, Tab, Enter, Enter and Escape, so they are those keys;
    /// other letters (either case) are ``control(_:)``. `nil` for anything else.
    package static func ctrl(_ letter: Character) -> Key? {
        switch letter.lowercased() {
        case "h": return .backspace
        case "i": return .tab
        case "j", "m": return .enter
        case "[": return .escape
        case let lower where lower.count == 1 && ("a"..."z").contains(lower):
            return lower.first.map(Key.control)
        default: return nil
        }
    }
}
