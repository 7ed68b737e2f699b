import TerminalUI
/// What a key can do anywhere in the console. Screens map these to their own behaviour; the
/// raw value is the action's name in `keys.toml`.
package enum KeyAction: String, CaseIterable, Hashable, Sendable {
    /// Select the previous row.
    case moveUp
    /// Select the next row.
    case moveDown
    /// Scroll up one page.
    case pageUp
    /// Scroll down one page.
    case pageDown
    /// Jump to the first row.
    case top
    /// Jump to the last row.
    case bottom
    /// Open the selected item.
    case drillIn
    /// Go back up one level (or close a dialog).
    case back
    /// Return to the view shown before this one.
    case previousView
    /// Focus the next panel.
    case nextPane
    /// Focus the previous panel.
    case previousPane
    /// Filter the rows.
    case filter
    /// Jump to the next row whose key holds the filter's text.
    case nextMatch
    /// Jump to the previous row whose key holds the filter's text.
    case previousMatch
    /// Open the command line.
    case command
    /// Show the key bindings.
    case help
    /// Pause or resume live refresh.
    case pause
    /// Refresh more often.
    case refreshFaster
    /// Refresh less often.
    case refreshSlower
    /// Mark or unmark the selected row for a bulk action.
    case toggleMark
    /// Mark every row from the last marked one to the selection.
    case markRange
    /// Mark every entry the filter matches (or unmark them).
    case markAllMatching
    /// Sort by the next column.
    case sortNext
    /// Reverse the sort order.
    case reverseSort
    /// Pick the sort column from a menu.
    case sortMenu
    /// Show the value as a hex dump, or as text again.
    case toggleHex
    /// Go to the Overview.
    case showOverview
    /// Show the expiry timeline (of the namespace in view, else of the store).
    case showTimeline
    /// Show the statistics graphs.
    case showStatistics
    /// Show the audit log.
    case showAudit
    /// Switch the statistics window (5 min, 1 h, 24 h).
    case cycleWindow
    /// Invalidate the selected or marked entries (or those the filter matches).
    case invalidate
    /// Clear the namespace in view (asks for its name).
    case clearNamespace
    /// Sweep expired entries (of the namespace in view, else of the store).
    case sweep
    /// Undo the last action (or, in the audit log, the selected one).
    case undo
    /// Turn mouse reporting on or off.
    case toggleMouse
    /// Redraw the whole screen.
    case redraw
    /// Scan a Redis keyspace again from the start.
    case rescan
    /// Leave the console.
    case quit

}
