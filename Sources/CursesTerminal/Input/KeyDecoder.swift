import CNCurses
import TerminalUI

/// Translates what `get_wch` returns into ``TerminalUI/Key``s and mouse events.
enum KeyDecoder {
    /// The key for a character `get_wch` returned (`OK`): control bytes become Tab, Enter,
    /// Esc, Backspace or Ctrl-letters; other control bytes are dropped.
    static func key(forCharacter value: UInt32) -> Key? {
        switch value {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x1B: return .escape
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return Unicode.Scalar(0x60 + value).flatMap { Key.ctrl(Character($0)) }
        case 0x00..<0x20, 0x80..<0xA0: return nil
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }

    /// The key for a function-key code `get_wch` returned (`KEY_CODE_YES`); `nil` for codes
    /// the console has no use for. Keypad keys of terminals without Home/End/PgUp/PgDn
    /// (`KEY_A1`, `KEY_C1`, `KEY_A3`, `KEY_C3`, `KEY_FIND`, `KEY_SELECT`) count as those.
    static func key(forCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_A1, KEY_FIND: return .home
        case KEY_END, KEY_C1, KEY_SELECT: return .end
        case KEY_PPAGE, KEY_A3: return .pageUp
        case KEY_NPAGE, KEY_C3: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_BTAB: return .backTab
        case cn_key_f(1)...cn_key_f(63): return .function(Int(code - cn_key_f0()))
        default: return nil
        }
    }

    /// The mouse event curses reported, or `nil` for kinds the console does not use. A
    /// click curses put together from a press and a release that arrived at once counts as
    /// a press; two such clicks as a double click.
    static func mouse(_ event: MEVENT) -> MouseEvent? {
        let state = event.bstate
        let kinds: [(mmask_t, MouseEvent.Kind)] = [
            (cn_button1_pressed() | cn_button1_clicked(), .press(.left)),
            (cn_button1_double_clicked(), .doubleClick(.left)), (cn_button1_released(), .release(.left)),
            (cn_button2_pressed(), .press(.middle)), (cn_button2_released(), .release(.middle)),
            (cn_button3_pressed(), .press(.right)), (cn_button3_released(), .release(.right)),
            (cn_button4_pressed(), .scrollUp), (cn_button5_pressed(), .scrollDown),
        ]
        guard let kind = kinds.first(where: { $0.0 != 0 && state & $0.0 != 0 })?.1 else { return nil }
        return MouseEvent(kind: kind, position: Point(column: Int(event.x), row: Int(event.y)))
    }
}
