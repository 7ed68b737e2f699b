import TerminalUI
/// Where the chrome and the view go on the screen: the header on the first row, the
/// breadcrumb bar on the second, the status line on the last, the view in between.
package enum ConsoleLayout {
    /// Below this size the console shows only a "terminal too small" notice.
    package static let minimumSize = Size(columns: 60, rows: 16)

    /// Whether `size` is large enough for the console.
    package static func fits(_ size: Size) -> Bool {
        size.columns >= minimumSize.columns && size.rows >= minimumSize.rows
    }

    /// The rows between the breadcrumb bar and the status line.
    package static func body(_ size: Size) -> Rect {
        Rect(column: 0, row: 2, columns: size.columns, rows: size.rows - 3)
    }
}
