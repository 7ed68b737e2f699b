import TerminalUI

/// How a ``TerminalSession`` starts.
package struct TerminalOptions: Sendable {
    /// How long after Esc the terminal waits for the rest of an escape sequence before
    /// reporting Esc itself (curses' default is a sluggish second).
    package var escapeDelay: Duration
    /// Where stderr goes while curses owns the screen (anything written there would corrupt
    /// the display): this file, appended to, or `/dev/null` when `nil`.
    package var logPath: String?
    /// Whether mouse events are reported from the start (it stops the terminal's own text
    /// selection, so it is off by default).
    package var mouseReporting: Bool
    /// The theme to draw with; replaced by ``Theme/monochrome`` on terminals without colours.
    package var theme: Theme

    /// Options with a 25 ms Esc delay, stderr discarded, mouse off and the default theme.
    package init(
        escapeDelay: Duration = .milliseconds(25), logPath: String? = nil, mouseReporting: Bool = false,
        theme: Theme = .fallback
    ) {
        self.escapeDelay = escapeDelay
        self.logPath = logPath
        self.mouseReporting = mouseReporting
        self.theme = theme
    }
}
