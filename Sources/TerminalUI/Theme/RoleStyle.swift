/// What a theme gives one role: colours and attributes.
package struct RoleStyle: Hashable, Sendable {
    /// The text colour.
    package var foreground: ThemeColor
    /// The cell colour.
    package var background: ThemeColor
    /// Bold, dim, underline, reverse.
    package var attributes: TextAttributes

    /// A style; both colours default to the terminal's own.
    package init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        attributes: TextAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Whether either colour is not the terminal's default.
    package var usesColor: Bool { foreground != .terminalDefault || background != .terminalDefault }
}
