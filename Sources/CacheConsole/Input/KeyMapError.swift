import TerminalUI
/// Why key bindings could not be loaded, as one line naming the file and the line or action.
package struct KeyMapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Hashable, Sendable {
        /// The file exists but cannot be read, or is not UTF-8.
        case unreadable
        /// The file is not valid TOML.
        case syntax
        /// A key in the file is not the name of a ``KeyAction``.
        case unknownAction
        /// A value is not a key notation (or a list of them).
        case invalidKey
        /// One key is bound to two actions.
        case duplicateKey
    }

    /// What went wrong.
    package let kind: Kind
    /// The file the error is about.
    package let source: String
    /// `line 3, column 9` for syntax errors, otherwise the action name.
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
    func located(in source: String) -> KeyMapError {
        KeyMapError(kind, source: source, location: location, message: message)
    }
}
