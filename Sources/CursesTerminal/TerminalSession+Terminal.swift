import TerminalUI

/// The curses terminal is the console's terminal.
extension TerminalSession: Terminal {}
