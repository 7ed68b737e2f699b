/// How a cell is drawn, independent of the theme: a semantic role plus attributes added on top
/// of the role's own. The terminal resolves it with the current ``Theme`` when drawing, so a
/// theme switch needs no re-render and snapshots do not depend on colours.
package struct CellStyle: Hashable, Sendable {
    /// The semantic role, coloured by the theme.
    package var role: StyleRole
    /// Attributes added to the role's attributes.
    package var attributes: TextAttributes

    /// A style drawing `role` with `attributes` added.
    package init(_ role: StyleRole, _ attributes: TextAttributes = []) {
        self.role = role
        self.attributes = attributes
    }

    /// Plain body text.
    package static let text = CellStyle(.text)
}
