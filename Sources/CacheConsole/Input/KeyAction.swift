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
        case .redraw: return "Redraw the screen"
        case .quit: return "Quit"
        }
    }
}
