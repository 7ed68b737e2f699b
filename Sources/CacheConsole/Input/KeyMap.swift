import TerminalUI
/// Which keys trigger which ``KeyAction``s. Each key triggers at most one action; an action
/// may have several keys, or none.
package struct KeyMap: Hashable, Sendable {
    private let keysByAction: [KeyAction: [Key]]
    private let actionsByKey: [Key: KeyAction]

    /// The built-in bindings: each action's ``KeyAction/defaultKeys`` (a test checks that no
    /// key appears twice).
    package static let defaults = KeyMap(
        checkedBindings: Dictionary(uniqueKeysWithValues: KeyAction.allCases.map { ($0, $0.defaultKeys) }))

    /// A map of exactly `bindings`; throws when a key is bound to two actions.
    package init(bindings: [KeyAction: [Key]]) throws(ConfigError) {
        var owners: [Key: KeyAction] = [:]
        // By name, so that which of two actions an error names does not depend on view order.
        for action in KeyAction.allCases.sorted(by: { $0.name < $1.name }) {
            for key in bindings[action] ?? [] {
                if let other = owners[key], other != action {
                    throw ConfigError(
                        .duplicateKey, source: "key bindings", location: action.name,
                        message: "'\(key.notation)' is also bound to \(other.name)")
                }
                owners[key] = action
            }
        }
        self.init(checkedBindings: bindings)
    }

    /// Bindings already known to bind each key once (the defaults, a test checks them).
    private init(checkedBindings bindings: [KeyAction: [Key]]) {
        var unique: [KeyAction: [Key]] = [:]
        var owners: [Key: KeyAction] = [:]
        for action in KeyAction.allCases {
            var keys: [Key] = []
            for key in bindings[action] ?? [] where owners[key] == nil {
                owners[key] = action
                keys.append(key)
            }
            unique[action] = keys
        }
        keysByAction = unique
        actionsByKey = owners
    }

    /// The action `key` triggers, if any.
    package func action(for key: Key) -> KeyAction? {
        actionsByKey[key]
    }

    /// The keys that trigger `action`, in the order they were bound.
    package func keys(for action: KeyAction) -> [Key] {
        keysByAction[action] ?? []
    }

    /// This map with `overrides` applied: each action listed gets exactly the keys given (an
    /// empty list unbinds it), and those keys are taken from whatever action had them before.
    /// Throws when the overrides bind one key to two actions.
    package func applying(_ overrides: [KeyAction: [Key]]) throws(ConfigError) -> KeyMap {
        let claimed = Set(overrides.values.joined())
        var bindings: [KeyAction: [Key]] = [:]
        for action in KeyAction.allCases {
            bindings[action] = overrides[action] ?? keys(for: action).filter { !claimed.contains($0) }
        }
        return try KeyMap(bindings: bindings)
    }
}
