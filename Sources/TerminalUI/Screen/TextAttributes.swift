/// Terminal text attributes; a theme role carries some, and a cell may add more.
package struct TextAttributes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    package let rawValue: UInt8

    /// Attributes from raw bits.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bold (often also brighter).
    package static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim (half-bright).
    package static let dim = TextAttributes(rawValue: 1 << 1)
    /// Underlined.
    package static let underline = TextAttributes(rawValue: 1 << 2)
    /// Foreground and background swapped.
    package static let reverse = TextAttributes(rawValue: 1 << 3)

    /// Every attribute with its name as written in theme files.
    package static let named: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
    ]
}
