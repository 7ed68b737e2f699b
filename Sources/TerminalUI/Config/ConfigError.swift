import Foundation

/// Why a configuration file (a theme, the key bindings) could not be loaded, as one line
/// naming the file and the line or key.
package struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Hashable, Sendable {
        /// No folder and no built-in file has this name.
        case notFound
        /// The name is not a plain file name (letters, digits, `.`, `_`, `-`).
        case invalidName
        /// The file exists but cannot be read, or is not UTF-8.
        case unreadable
        /// The file is not valid TOML.
        case syntax
        /// A key in the file names nothing known (an action, a theme key).
        case unknownName
        /// The TOML is valid but a value is not (a bad colour, an unknown key notation, …).
        case invalidValue
        /// One key is bound to two actions.
        case duplicateKey
        /// Themes inherit from each other in a circle.
        case inheritanceCycle
    }

    /// What went wrong.
    package let kind: Kind
    /// The file (or built-in file, or name) the error is about.
    package let source: String
    /// `line 3, column 9` for syntax errors, else the key path (`styles.selection.fg`).
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

    /// This error reported against `source` instead.
    package func located(in source: String) -> ConfigError {
        ConfigError(kind, source: source, location: location, message: message)
    }

    /// The UTF-8 text of the file at `path`; `nil` when there is no such file.
    package static func readText(at path: String) throws(ConfigError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(.unreadable, source: path, message: "cannot be read")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError(.unreadable, source: path, message: "is not UTF-8 text")
        }
        return text
    }
}
