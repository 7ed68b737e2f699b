/// What a key can do anywhere in the console. Screens map these to their own behaviour; the
/// raw value is the action's name in `keys.toml`.
public enum KeyAction: String, CaseIterable, Hashable, Sendable {
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
    /// Leave the console.
    case quit

    /// One line for the help screen.
    public var summary: String {
        switch self {
        case .moveUp: return "Move up"
        case .moveDown: return "Move down"
        case .pageUp: return "Page up"
        case .pageDown: return "Page down"
        case .top: return "First row"
        case .bottom: return "Last row"
        case .drillIn: return "Open the selection"
        case .back: return "Back / close"
        case .previousView: return "Previous view"
        case .nextPane: return "Next panel"
        case .previousPane: return "Previous panel"
        case .filter: return "Filter"
        case .command: return "Command line"
        case .help: return "Help"
        case .pause: return "Pause / resume live updates"
        case .refreshFaster: return "Refresh faster"
        case .refreshSlower: return "Refresh slower"
        case .toggleMark: return "Mark / unmark"
        case .markRange: return "Mark from the last mark to here"
        case .markAllMatching: return "Mark all matching / unmark all"
        case .sortNext: return "Sort by the next column"
        case .reverseSort: return "Reverse the sort"
        case .toggleHex: return "Hex dump / text"
        case .showOverview: return "Overview"
        case .showTimeline: return "Expiry timeline"
        case .showStatistics: return "Statistics"
        case .showAudit: return "Audit log"
        case .cycleWindow: return "Statistics window: 5 min, 1 h, 24 h"
        case .invalidate: return "Invalidate selected / marked / matching"
        case .clearNamespace: return "Clear the namespace"
        case .sweep: return "Sweep expired entries"
        case .undo: return "Undo the last action"
        case .toggleMouse: return "Mouse on / off"
        case .redraw: return "Redraw the screen"
        case .quit: return "Quit"
        }
    }
}
