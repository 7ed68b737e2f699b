import TerminalUI

/// Something a key can do: its name in `keys.toml` and the keys it has unless that file says
/// otherwise. A view or the console gives it a meaning with a ``KeyBinding`` (its handler, hint
/// and help); the actions the key map knows are those the bindings of ``ConsoleViews`` name.
package struct KeyAction: Hashable, Sendable, CustomStringConvertible {
    /// The name in `keys.toml`.
    package let name: String
    /// The keys bound by default.
    package let defaultKeys: [Key]

    /// An action named `name`, bound to `keys` by default.
    init(_ name: String, _ keys: [Key]) {
        self.name = name
        defaultKeys = keys
    }

    package static func == (first: KeyAction, second: KeyAction) -> Bool { first.name == second.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
    package var description: String { name }

    /// Every action some view or the console binds, in the order the help lists them.
    package static var allCases: [KeyAction] { ConsoleViews.actions }
}

/// The actions more than one view or the console binds (arrows and vim keys to move, Enter/→/l
/// to open, Esc/←/h to go back, `+`/`-` refresh faster/slower like btop, …).
extension KeyAction {
    /// Select the previous row.
    package static let moveUp = KeyAction("moveUp", [.up, .character("k")])
    /// Select the next row.
    package static let moveDown = KeyAction("moveDown", [.down, .character("j")])
    /// Scroll up one page.
    package static let pageUp = KeyAction("pageUp", [.pageUp, .control("b")])
    /// Scroll down one page.
    package static let pageDown = KeyAction("pageDown", [.pageDown, .control("f")])
    /// Jump to the first row.
    package static let top = KeyAction("top", [.character("g"), .home])
    /// Jump to the last row.
    package static let bottom = KeyAction("bottom", [.character("G"), .end])
    /// Open the selected item.
    package static let drillIn = KeyAction("drillIn", [.enter, .right, .character("l")])
    /// Go back up one level (or close a dialog).
    package static let back = KeyAction("back", [.escape, .left, .character("h")])
    /// Return to the view shown before this one.
    package static let previousView = KeyAction("previousView", [.backspace])
    /// Focus the next panel.
    package static let nextPane = KeyAction("nextPane", [.tab])
    /// Focus the previous panel.
    package static let previousPane = KeyAction("previousPane", [.backTab])
    /// Filter the rows.
    package static let filter = KeyAction("filter", [.character("/")])
    /// Jump to the next row whose key holds the filter's text.
    package static let nextMatch = KeyAction("nextMatch", [.character("n")])
    /// Jump to the previous row whose key holds the filter's text.
    package static let previousMatch = KeyAction("previousMatch", [.character("N")])
    /// Open the command line.
    package static let command = KeyAction("command", [.character(":")])
    /// Show the key bindings.
    package static let help = KeyAction("help", [.character("?"), .function(1)])
    /// Pause or resume live refresh.
    package static let pause = KeyAction("pause", [.character("p")])
    /// Keep the rows where they are while their figures still update (or let them move again).
    package static let freezeOrder = KeyAction("freezeOrder", [.character("F")])
    /// Open the entries that expire in the coming hour.
    package static let nextHour = KeyAction("nextHour", [.character("E")])
    /// Refresh more often.
    package static let refreshFaster = KeyAction("refreshFaster", [.character("+"), .character("=")])
    /// Refresh less often.
    package static let refreshSlower = KeyAction("refreshSlower", [.character("-"), .character("_")])
    /// Mark or unmark the selected row for a bulk action.
    package static let toggleMark = KeyAction("toggleMark", [.character(" ")])
    /// Mark every row from the last marked one to the selection.
    package static let markRange = KeyAction("markRange", [.character("V")])
    /// Mark every entry the filter matches (or unmark them).
    package static let markAllMatching = KeyAction("markAllMatching", [.character("*")])
    /// Sort by the next column.
    package static let sortNext = KeyAction("sortNext", [.character("s")])
    /// Reverse the sort order.
    package static let reverseSort = KeyAction("reverseSort", [.character("S")])
    /// Pick the sort column from a menu.
    package static let sortMenu = KeyAction("sortMenu", [.character("o")])
    /// Show the value as a hex dump, or as text again.
    package static let toggleHex = KeyAction("toggleHex", [.character("x")])
    /// Copy the entry's key (OSC 52, else a private file).
    package static let copyKey = KeyAction("copyKey", [.character("y")])
    /// Copy the entry's value (OSC 52, else a private file).
    package static let copyValue = KeyAction("copyValue", [.character("Y")])
    /// Open the entry's value in `$PAGER`.
    package static let openPager = KeyAction("openPager", [.character("v")])
    /// Go to the Overview.
    package static let showOverview = KeyAction("showOverview", [.character("1")])
    /// Show the expiry timeline (of the namespace in view, else of the store).
    package static let showTimeline = KeyAction("showTimeline", [.character("2"), .character("t")])
    /// Show the statistics graphs.
    package static let showStatistics = KeyAction("showStatistics", [.character("3")])
    /// Show the audit log.
    package static let showAudit = KeyAction("showAudit", [.character("4")])
    /// Switch the statistics window (5 min, 1 h, 24 h).
    package static let cycleWindow = KeyAction("cycleWindow", [.character("W")])
    /// Invalidate the selected or marked entries (or those the filter matches).
    package static let invalidate = KeyAction("invalidate", [.character("d"), .delete])
    /// Clear the namespace in view (asks for its name).
    package static let clearNamespace = KeyAction("clearNamespace", [.character("D")])
    /// Sweep expired entries (of the namespace in view, else of the store).
    package static let sweep = KeyAction("sweep", [.character("w")])
    /// Undo the last action (or, in the audit log, the selected one).
    package static let undo = KeyAction("undo", [.character("u")])
    /// Show the message log.
    package static let messageLog = KeyAction("messageLog", [.character("M")])
    /// Turn mouse reporting on or off.
    package static let toggleMouse = KeyAction("toggleMouse", [.character("m")])
    /// Redraw the whole screen.
    package static let redraw = KeyAction("redraw", [.control("l")])
    /// Show what a keyspace prefix holds by type and TTL.
    package static let showBreakdown = KeyAction("showBreakdown", [.character("b")])
    /// Show the Redis nodes: roles, slots, keys, memory, where namespaces live.
    package static let showTopology = KeyAction("showTopology", [.character("i")])
    /// Show every Redis node's slow log and latency spikes.
    package static let showSlowLog = KeyAction("showSlowLog", [.character("L")])
    /// Scan a Redis keyspace again from the start.
    package static let rescan = KeyAction("rescan", [.character("r")])
    /// Leave the console.
    package static let quit = KeyAction("quit", [.character("q")])
}
