/// Why a terminal session could not start: one line, ready to print.
package enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (piped or redirected).
    case notATerminal
    /// `TERM` is unset or empty.
    case terminalTypeUnset
    /// curses cannot use the terminal type in `TERM` (no terminfo entry, or one it cannot
    /// drive).
    case unknownTerminal(String)
    /// The terminal type in `TERM` cannot move the cursor (`dumb`): a full screen is impossible.
    case lineOnlyTerminal(String)
    /// Another session is running in this process (curses drives one terminal at a time).
    case alreadyActive
    /// The file stderr is sent to while curses runs could not be opened.
    case cannotOpenLog(path: String, reason: String)

    /// The message.
    package var description: String {
        switch self {
        case .notATerminal:
            return "the console needs a terminal: standard input and output must not be redirected"
        case .terminalTypeUnset:
            return "TERM is not set; set it to your terminal's type (for example TERM=xterm-256color)"
        case .unknownTerminal(let name):
            return "unknown terminal type '\(name)' (no usable terminfo entry); try TERM=xterm-256color"
        case .lineOnlyTerminal(let name):
            return "terminal type '\(name)' cannot draw a full screen (no cursor addressing); try TERM=xterm-256color"
        case .alreadyActive:
            return "a terminal session is already running in this process"
        case .cannotOpenLog(let path, let reason):
            return "cannot open the log file \(path): \(reason)"
        }
    }
}
