/// How a cell is drawn, independent of the theme: a semantic role plus attributes added on top
/// of the role's own. The terminal resolves it with the current ``Theme`` when drawing, so a
/// theme switch needs no re-render and snapshots do not depend on colours.
public struct CellStyle: Hashable, Sendable {
    /// The semantic role, coloured by the theme.
    public var role: StyleRole
    /// Attributes added to the role's attributes.
    public var attributes: TextAttributes

    /// A style drawing `role` with `attributes` added.
    public init(_ role: StyleRole, _ attributes: TextAttributes = []) {
        self.role = role
        self.attributes = attributes
    }

    /// Plain body text.
    public static let text = CellStyle(.text)
}
