/// What a cell means, which a ``Theme`` turns into colours and attributes. Screens pick roles,
/// never colours. The raw value is the role's key in theme files.
package enum StyleRole: String, CaseIterable, Hashable, Sendable {
    /// Body text.
    case text
    /// Secondary text: units, hints, timestamps.
    case muted
    /// The header bar across the top.
    case header
    /// Emphasis within the header (the file name, a live indicator).
    case headerAccent
    /// Panel and dialog titles.
    case title
    /// Panel borders and rules.
    case border
    /// The drill-down path (`store › namespace › entry`).
    case breadcrumb
    /// The selected row in the focused panel.
    case selection
    /// The selected row in a panel without focus.
    case selectionInactive
    /// Rows marked for a bulk action.
    case marked
    /// Values that changed since the last refresh.
    case highlightChanged
    /// Tags on entries.
    case tag
    /// Healthy states: live entries, high hit rates.
    case good
    /// States that need attention: nearly expired, near a limit.
    case warn
    /// Failures and destructive choices.
    case bad
    /// Neutral notices.
    case info
    /// The lowest step of the graph gradient.
    case graphLow
    /// The second step of the graph gradient.
    case graphMidLow
    /// The middle step of the graph gradient.
    case graphMid
    /// The fourth step of the graph gradient.
    case graphMidHigh
    /// The highest step of the graph gradient.
    case graphHigh
    /// The filled part of a horizontal bar.
    case bar
    /// The track of a horizontal bar.
    case barBackground
    /// The status line across the bottom.
    case statusBar
    /// An error shown in the status line.
    case statusError
    /// Dialog bodies.
    case dialog
    /// Dialog borders.
    case dialogBorder
    /// Text input fields (filter, command line, confirmations).
    case input
    /// A key in a key hint (`q`).
    case key
    /// The description next to a key (`quit`).
    case keyHint

    /// The graph gradient from low to high.
    package static let graphGradient: [StyleRole] = [.graphLow, .graphMidLow, .graphMid, .graphMidHigh, .graphHigh]

    /// The gradient step for `fraction` of a graph's height (0 = lowest, 1 = highest).
    package static func graph(at fraction: Double) -> StyleRole {
        let steps = graphGradient.count
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return graphGradient[min(steps - 1, Int(clamped * Double(steps)))]
    }
}
