/// Terminal text attributes; a theme role carries some, and a cell may add more.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Attributes from raw bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bold (often also brighter).
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim (half-bright).
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Underlined.
    public static let underline = TextAttributes(rawValue: 1 << 2)
    /// Foreground and background swapped.
    public static let reverse = TextAttributes(rawValue: 1 << 3)

    /// Every attribute with its name as written in theme files.
    public static let named: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
    ]
}
