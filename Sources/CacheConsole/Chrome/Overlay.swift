import TerminalUI
import CacheCore

/// What sits over the view and gets the keys first.
package enum Overlay: Sendable {
    /// The `/` filter of an Entries view, applied as it is typed.
    case filter(InputLine)
    /// The `:` command line, with the completions of the last Tab.
    case command(InputLine, completions: [String])
    /// A measured action waiting for the operator's answer.
    case confirm(ConfirmDialog)
}

/// A `/` or `:` field: the text, where ↑/↓ are in the history, and what was in force before.
package struct InputLine: Sendable, Hashable {
    /// The text and cursor.
    package internal(set) var field: TextField
    /// How far back ↑ went (0: the line being typed).
    var recall = 0
    /// The line being typed, kept while ↑/↓ show older ones.
    var draft = ""
    /// The filter in force when the field opened (Esc goes back to it).
    var original = ""

    /// A field holding `text`.
    init(_ text: String = "") {
        field = TextField(text)
        original = text
    }

    /// Shows the line `step` further back (↑: 1, ↓: -1) in `history`; false at either end.
    mutating func recall(_ step: Int, in history: [String]) -> Bool {
        let next = recall + step
        guard next >= 0, next <= history.count else { return false }
        if recall == 0 { draft = field.text }
        recall = next
        field.set(next == 0 ? draft : history[history.count - next])
        return true
    }
}

/// The confirmation of a destructive action: the preview and the answer typed so far. The
/// default answer (Enter on an empty field) is No.
package struct ConfirmDialog: Sendable {
    /// The measured action.
    package let pending: PendingAction
    /// The answer typed so far (the name, for a clear).
    package internal(set) var answer: TextField
}
