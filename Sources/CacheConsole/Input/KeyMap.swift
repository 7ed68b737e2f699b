/// Which keys trigger which ``KeyAction``s. Each key triggers at most one action; an action
/// may have several keys, or none.
public struct KeyMap: Hashable, Sendable {
    private let keysByAction: [KeyAction: [Key]]
    private let actionsByKey: [Key: KeyAction]

    /// The built-in bindings: arrows and vim keys to move, Enter/→/l to open, Esc/←/h to go
    /// back, `-` for the previous view, Tab/Shift-Tab between panels, g/G and Home/End,
    /// PgUp/PgDn (and Ctrl-B/Ctrl-F), `/` filter, `:` command, `?` help, `p` pause, `+`/`_`
    /// refresh faster/slower (`-` is taken by the previous view; `_` is its shifted key),
    /// Space mark (`V` a range, `*` all matching), `s`/`S` sort, `x` hex, `1`–`4` (and `t`)
    /// views, `W` statistics window, `d`/Del invalidate, `D` clear, `w` sweep, `u` undo,
    /// `m` mouse, Ctrl-L redraw, `q` quit.
    public static let defaults = KeyMap(checkedBindings: defaultBindings)

    /// The bindings of ``defaults`` (a test checks that no key appears twice).
    static let defaultBindings: [KeyAction: [Key]] = [
        .moveUp: [.up, .character("k")],
        .moveDown: [.down, .character("j")],
        .pageUp: [.pageUp, .control("b")],
        .pageDown: [.pageDown, .control("f")],
        .top: [.character("g"), .home],
        .bottom: [.character("G"), .end],
        .drillIn: [.enter, .right, .character("l")],
        .back: [.escape, .left, .character("h")],
        .previousView: [.character("-")],
        .nextPane: [.tab],
        .previousPane: [.backTab],
        .filter: [.character("/")],
        .command: [.character(":")],
        .help: [.character("?"), .function(1)],
        .pause: [.character("p")],
        .refreshFaster: [.character("+")],
        .refreshSlower: [.character("_")],
        .toggleMark: [.character(" ")],
        .markRange: [.character("V")],
        .markAllMatching: [.character("*")],
        .sortNext: [.character("s")],
        .reverseSort: [.character("S")],
        .toggleHex: [.character("x")],
        .showOverview: [.character("1")],
        .showTimeline: [.character("2"), .character("t")],
        .showStatistics: [.character("3")],
        .showAudit: [.character("4")],
        .cycleWindow: [.character("W")],
        .invalidate: [.character("d"), .delete],
        .clearNamespace: [.character("D")],
        .sweep: [.character("w")],
        .undo: [.character("u")],
        .toggleMouse: [.character("m")],
        .redraw: [.control("l")],
        .quit: [.character("q")],
    ]

    /// A map of exactly `bindings`; throws when a key is bound to two actions.
    public init(bindings: [KeyAction: [Key]]) throws(KeyMapError) {
        var owners: [Key: KeyAction] = [:]
        for action in KeyAction.allCases {
            for key in bindings[action] ?? [] {
                if let other = owners[key], other != action {
                    throw KeyMapError(
                        .duplicateKey, source: "key bindings", location: action.rawValue,
                        message: "'\(key.notation)' is also bound to \(other.rawValue)")
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
    public func action(for key: Key) -> KeyAction? {
        actionsByKey[key]
    }

    /// The keys that trigger `action`, in the order they were bound.
    public func keys(for action: KeyAction) -> [Key] {
        keysByAction[action] ?? []
    }

    /// This map with `overrides` applied: each action listed gets exactly the keys given (an
    /// empty list unbinds it), and those keys are taken from whatever action had them before.
    /// Throws when the overrides bind one key to two actions.
    public func applying(_ overrides: [KeyAction: [Key]]) throws(KeyMapError) -> KeyMap {
        let claimed = Set(overrides.values.joined())
        var bindings: [KeyAction: [Key]] = [:]
        for action in KeyAction.allCases {
            bindings[action] = overrides[action] ?? keys(for: action).filter { !claimed.contains($0) }
        }
        return try KeyMap(bindings: bindings)
    }

    /// One entry per action, in ``KeyAction`` order, for the help screen.
    public var helpEntries: [KeyHelpEntry] {
        KeyAction.allCases.map { KeyHelpEntry(action: $0, keys: keys(for: $0)) }
    }
}

/// One line of the key help, generated from the live ``KeyMap``.
public struct KeyHelpEntry: Hashable, Sendable {
    /// The action.
    public var action: KeyAction
    /// Its keys (empty when unbound).
    public var keys: [Key]

    /// The keys as shown: `k, ↑`, or `(unbound)`.
    public var keyLabels: String {
        keys.isEmpty ? "(unbound)" : keys.map(\.label).joined(separator: ", ")
    }

    /// What the action does.
    public var summary: String { action.summary }
}
