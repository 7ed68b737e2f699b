/// A complete theme: a style for every ``StyleRole``. Load one with ``ThemeLibrary``.
package struct Theme: Hashable, Sendable {
    /// The name it was loaded by.
    package let name: String
    /// The one-line description.
    package let description: String
    private let styles: [StyleRole: RoleStyle]

    /// A theme from explicit styles; roles left out are drawn plain.
    package init(name: String, description: String = "", styles: [StyleRole: RoleStyle]) {
        self.name = name
        self.description = description
        self.styles = styles
    }

    /// `file`'s styles over `base`'s.
    package init(name: String, file: ThemeFile, base: Theme) {
        self.name = name
        description = file.description.isEmpty ? base.description : file.description
        styles = base.styles.merging(file.styles) { _, own in own }
    }

    /// The style of `role`.
    package subscript(role: StyleRole) -> RoleStyle {
        styles[role] ?? RoleStyle()
    }

    /// The style a cell is drawn with: its role's style plus the cell's own attributes.
    package func style(for cell: CellStyle) -> RoleStyle {
        var style = self[cell.role]
        style.attributes.formUnion(cell.attributes)
        return style
    }

    /// Whether the theme is made for a dark background: its text is light, or the
    /// terminal's own colour.
    package var isDark: Bool {
        switch self[.text].foreground {
        case .terminalDefault: true
        case .ansi(let ansi): ![.black, .brightBlack].contains(ansi)
        case .rgb(let rgb): Int(rgb.red) * 299 + Int(rgb.green) * 587 + Int(rgb.blue) * 114 >= 128_000
        }
    }

    /// Whether any role has a colour (a theme without colours relies on attributes alone).
    package var usesColor: Bool { styles.values.contains(where: \.usesColor) }

    /// The theme to draw with at `depth`: itself, except that a theme that relies on colour
    /// is replaced by ``monochrome`` on a terminal without colours, where its colours would
    /// vanish and leave selections and bars invisible.
    package func adapted(to depth: ColorDepth) -> Theme {
        depth == .monochrome && usesColor ? .monochrome : self
    }

    /// The built-in `default` theme: what the console draws with when no theme file is found
    /// or the chosen one is broken.
    package static let fallback = builtIn("default")

    /// The built-in `monochrome` theme, used whenever the terminal shows no colours.
    package static let monochrome = builtIn("monochrome")

    /// The built-in theme `name`; a theme of plain attributes if it could not be parsed
    /// (which a test rules out).
    private static func builtIn(_ name: String) -> Theme {
        guard let text = BuiltInThemes.source(named: name),
            let file = try? ThemeFile(parsing: text, source: "built-in theme '\(name)'")
        else { return plain }
        return Theme(name: name, file: file, base: plain)
    }

    /// Attributes only, no parsing: the last resort.
    private static let plain = Theme(
        name: "plain", description: "Attributes only",
        styles: [
            .header: RoleStyle(attributes: .reverse), .selection: RoleStyle(attributes: .reverse),
            .statusBar: RoleStyle(attributes: .reverse), .bad: RoleStyle(attributes: .bold),
            .marked: RoleStyle(attributes: .bold), .title: RoleStyle(attributes: .bold),
        ])
}
