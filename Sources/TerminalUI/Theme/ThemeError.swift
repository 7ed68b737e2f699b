/// Why a theme could not be loaded, as one line naming the file and the line or key.
package struct ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Hashable, Sendable {
        /// No folder and no built-in theme has this name.
        case notFound
        /// The name is not a plain file name (letters, digits, `.`, `_`, `-`).
        case invalidName
        /// The file exists but cannot be read, or is not UTF-8.
        case unreadable
        /// The file is not valid TOML.
        case syntax
        /// The TOML is valid but a key or value is not (unknown role, bad colour, …).
        case invalidValue
        /// Themes inherit from each other in a circle.
        case inheritanceCycle
    }

    /// What went wrong.
    package let kind: Kind
    /// The file (or built-in theme, or theme name) the error is about.
    package let source: String
    /// `line 3, column 9` for syntax errors, the key path (`styles.selection.fg`) for values.
    package let location: String?
    /// The problem.
    package let message: String

    /// An error of `kind` in `source` at `location`.
    package init(_ kind: Kind, source: String, location: String? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.location = location
        self.message = message
    }

    /// `source: location: message`.
    package var description: String {
        ([source] + (location.map { [$0] } ?? []) + [message]).joined(separator: ": ")
    }
}
