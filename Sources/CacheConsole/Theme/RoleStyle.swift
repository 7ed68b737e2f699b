/// What a theme gives one role: colours and attributes.
public struct RoleStyle: Hashable, Sendable {
    /// The text colour.
    public var foreground: ThemeColor
    /// The cell colour.
    public var background: ThemeColor
    /// Bold, dim, underline, reverse.
    public var attributes: TextAttributes

    /// A style; both colours default to the terminal's own.
    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        attributes: TextAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Whether either colour is not the terminal's default.
    public var usesColor: Bool { foreground != .terminalDefault || background != .terminalDefault }
}
