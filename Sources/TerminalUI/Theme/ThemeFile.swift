import TOMLKit

/// A theme file, parsed and checked but not yet combined with the theme it inherits from.
///
/// ```toml
/// description = "Dark, for 256-colour terminals"
/// inherits = "default"            # optional: roles left out come from this theme
///
/// [palette]                       # optional names for colours used below
/// accent = "#5fafff"
///
/// [styles]                        # role = { fg, bg, attributes }, each optional
/// text = { fg = "default" }
/// selection = { fg = "#000000", bg = "accent", attributes = ["bold"] }
/// ```
///
/// Colours are `#rrggbb`, `default` (the terminal's own), an ANSI name (`red`, `brightBlue`,
/// … as the user's palette shows them) or a palette name. Attributes are `bold`, `dim`,
/// `underline` and `reverse`. Unknown keys are errors, so typos do not pass silently.
package struct ThemeFile: Hashable, Sendable {
    /// Where the text came from (a path, or "built-in theme 'name'").
    package let source: String
    /// The one-line description.
    package let description: String
    /// The theme this one extends, if it names one.
    package let inherits: String?
    /// The roles this file defines.
    package let styles: [StyleRole: RoleStyle]

    /// Roles the file leaves to the theme it inherits from.
    package var missingRoles: [StyleRole] { StyleRole.allCases.filter { styles[$0] == nil } }

    /// Parses and checks `text`; `source` names it in errors.
    package init(parsing text: String, source: String) throws(ConfigError) {
        let document = try TOMLDocument(parsing: text, source: source)
        let reader = Reader(source: source)
        var description = ""
        var inherits: String?
        var palette: [String: ThemeColor] = [:]
        var styleTable: TOMLTable?
        for (key, value) in TOMLDocument.entries(of: document.root) {
            switch key {
            case "description": description = try reader.string(value, at: key)
            case "inherits": inherits = try reader.string(value, at: key)
            case "palette": palette = try reader.palette(reader.table(value, at: key))
            case "styles": styleTable = try reader.table(value, at: key)
            default:
                throw reader.unknown(key, "unknown key (a theme has description, inherits, [palette] and [styles])")
            }
        }
        self.source = source
        self.description = description
        self.inherits = inherits
        if let styleTable {
            styles = try reader.styles(styleTable, palette: palette)
        } else {
            styles = [:]
        }
    }
}

/// Reads the parts of a theme file, turning each problem into a ``ConfigError``.
private struct Reader {
    let source: String

    func invalid(_ location: String, _ message: String) -> ConfigError {
        ConfigError(.invalidValue, source: source, location: location, message: message)
    }

    /// A key the file may not have.
    func unknown(_ location: String, _ message: String) -> ConfigError {
        ConfigError(.unknownName, source: source, location: location, message: message)
    }

    func string(_ value: TOMLValueConvertible, at location: String) throws(ConfigError) -> String {
        guard let string = value.string else {
            throw invalid(location, "expected a string, found \(TOMLDocument.kind(of: value))")
        }
        return string
    }

    func table(_ value: TOMLValueConvertible, at location: String) throws(ConfigError) -> TOMLTable {
        guard let table = value.table else {
            throw invalid(location, "expected a table, found \(TOMLDocument.kind(of: value))")
        }
        return table
    }

    func palette(_ table: TOMLTable) throws(ConfigError) -> [String: ThemeColor] {
        var palette: [String: ThemeColor] = [:]
        for (name, value) in TOMLDocument.entries(of: table) {
            let location = "palette.\(name)"
            guard ThemeColor(name: name) == nil else {
                throw invalid(location, "a palette name cannot be 'default', an ANSI colour name or #rrggbb")
            }
            let text = try string(value, at: location)
            guard let color = ThemeColor(name: text) else { throw notAColor(text, at: location) }
            palette[name] = color
        }
        return palette
    }

    func styles(_ table: TOMLTable, palette: [String: ThemeColor]) throws(ConfigError) -> [StyleRole: RoleStyle] {
        var styles: [StyleRole: RoleStyle] = [:]
        for (key, value) in TOMLDocument.entries(of: table) {
            let location = "styles.\(key)"
            guard let role = StyleRole(rawValue: key) else {
                throw unknown(location, "unknown role (see Themes/default.toml for the list)")
            }
            var style = RoleStyle()
            for (field, fieldValue) in TOMLDocument.entries(of: try self.table(value, at: location)) {
                let fieldLocation = "\(location).\(field)"
                switch field {
                case "fg": style.foreground = try color(fieldValue, at: fieldLocation, palette: palette)
                case "bg": style.background = try color(fieldValue, at: fieldLocation, palette: palette)
                case "attributes": style.attributes = try attributes(fieldValue, at: fieldLocation)
                default: throw unknown(fieldLocation, "unknown key (a style has fg, bg and attributes)")
                }
            }
            styles[role] = style
        }
        return styles
    }

    private func color(
        _ value: TOMLValueConvertible, at location: String, palette: [String: ThemeColor]
    ) throws(ConfigError) -> ThemeColor {
        let text = try string(value, at: location)
        guard let color = palette[text] ?? ThemeColor(name: text) else { throw notAColor(text, at: location) }
        return color
    }

    private func attributes(_ value: TOMLValueConvertible, at location: String) throws(ConfigError) -> TextAttributes {
        guard let array = value.array else {
            throw invalid(location, "expected an array of strings, found \(TOMLDocument.kind(of: value))")
        }
        var attributes: TextAttributes = []
        for element in array {
            let name = try string(element, at: location)
            guard let attribute = TextAttributes.named.first(where: { $0.name == name })?.attribute else {
                throw invalid(
                    location, "unknown attribute \(TOMLDocument.quoted(name)) (use bold, dim, underline, reverse)")
            }
            attributes.insert(attribute)
        }
        return attributes
    }

    private func notAColor(_ text: String, at location: String) -> ConfigError {
        invalid(
            location,
            "\(TOMLDocument.quoted(text)) is not a colour (use #rrggbb, default, an ANSI name such as brightBlue, "
                + "or a [palette] name)")
    }
}
