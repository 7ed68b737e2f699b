import TOMLKit

/// A TOML configuration file parsed with TOMLKit, plus the checks every config file here
/// needs: a value's kind, and one-line errors that name the file and the line or key.
package struct TOMLDocument {
    /// Where the text came from, for messages (a path or "built-in theme 'default'").
    let source: String
    /// The top-level table.
    package let root: TOMLTable

    /// Parses `text`; throws a ``ConfigError`` of kind `syntax` at the position TOMLKit
    /// reports.
    package init(parsing text: String, source: String) throws(ConfigError) {
        self.source = source
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                .syntax, source: source,
                location: "line \(error.source.begin.line), column \(error.source.begin.column)",
                message: error.description)
        } catch {
            throw ConfigError(.syntax, source: source, location: "line 1, column 1", message: "\(error)")
        }
    }

    /// The entries of `table` sorted by key (TOML tables are unordered; sorting makes the
    /// first reported error stable).
    package static func entries(of table: TOMLTable) -> [(key: String, value: TOMLValueConvertible)] {
        table.map { (key: $0.0, value: $0.1) }.sorted { $0.key < $1.key }
    }

    /// How a value's kind is named in messages ("a string", "a table", …).
    package static func kind(of value: TOMLValueConvertible) -> String {
        switch value.type {
        case .table: return "a table"
        case .array: return "an array"
        case .string: return "a string"
        case .int: return "an integer"
        case .double: return "a number"
        case .bool: return "a boolean"
        case .date, .time, .dateTime: return "a date or time"
        }
    }

    /// `text` quoted for a message, sanitized and cut short.
    package static func quoted(_ text: String) -> String {
        "'" + TerminalText.truncate(text, toWidth: 40) + "'"
    }
}
