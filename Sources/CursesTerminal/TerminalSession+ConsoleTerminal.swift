import CacheConsole

/// The curses terminal is the console's terminal.
extension TerminalSession: ConsoleTerminal {}
