import TerminalUI
import Foundation
import TOMLKit

extension KeyMap {
    /// `base` with the overrides in a `keys.toml` text applied (see ``applying(_:)``): each
    /// top-level key is an action name, each value a key notation or a list of them
    /// (see ``Key/init(notation:)``):
    ///
    /// ```toml
    /// quit = ["q", "ctrl-c"]
    /// moveDown = "j"
    /// help = []              # unbind
    /// ```
    ///
    /// Throws a one-line ``ConfigError`` for bad TOML, unknown actions, unknown key names and
    /// keys bound twice; `source` names the text in errors.
    package init(parsing text: String, source: String, base: KeyMap = .defaults) throws(ConfigError) {
        let document = try TOMLDocument(parsing: text, source: source)
        var overrides: [KeyAction: [Key]] = [:]
        for (name, value) in TOMLDocument.entries(of: document.root) {
            guard let action = KeyAction.allCases.first(where: { $0.name == name }) else {
                throw ConfigError(
                    .unknownName, source: source, location: name,
                    message: "unknown action (actions: \(KeyAction.allCases.map(\.name).joined(separator: ", ")))")
            }
            overrides[action] = try Self.keys(in: value, for: name, source: source)
        }
        do {
            self = try base.applying(overrides)
        } catch {
            throw error.located(in: source)
        }
    }

    /// The keys a `keys.toml` value lists: one notation or an array of them.
    private static func keys(
        in value: TOMLValueConvertible, for action: String, source: String
    ) throws(ConfigError) -> [Key] {
        let notations: [TOMLValueConvertible] = value.array.map(Array.init) ?? [value]
        var keys: [Key] = []
        for notation in notations {
            guard let text = notation.string else {
                throw ConfigError(
                    .invalidValue, source: source, location: action,
                    message: "expected a key name or a list of them, found \(TOMLDocument.kind(of: notation))")
            }
            guard let key = Key(notation: text) else {
                throw ConfigError(
                    .invalidValue, source: source, location: action,
                    message: "unknown key \(TOMLDocument.quoted(text)) (a character, or a name such as up, pgdn, "
                        + "enter, esc, space, f5, ctrl-x)")
            }
            keys.append(key)
        }
        return keys
    }

    /// The defaults with the overrides in the file at `url` applied; just the defaults when
    /// there is no such file.
    package static func load(from url: URL) throws(ConfigError) -> KeyMap {
        guard let text = try ConfigError.readText(at: url.path) else { return .defaults }
        return try KeyMap(parsing: text, source: url.path)
    }

    /// ``load(from:)``, or the defaults with the reason when the file is broken: the console
    /// always starts, and shows the error.
    package static func loadOrDefaults(from url: URL) -> (keyMap: KeyMap, error: ConfigError?) {
        do {
            return (try load(from: url), nil)
        } catch {
            return (.defaults, error)
        }
    }
}
