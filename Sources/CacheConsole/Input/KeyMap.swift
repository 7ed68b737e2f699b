import TerminalUI
/// Which keys trigger which ``KeyAction``s. Each key triggers at most one action; an action
/// may have several keys, or none.
package struct KeyMap: Hashable, Sendable {
    private let keysByAction: [KeyAction: [Key]]
    private let actionsByKey: [Key: KeyAction]

    /// The built-in bindings: arrows and vim keys to move, Enter/→/l to open, Esc/←/h to go
    /// back, Backspace for the previous view, Tab/Shift-Tab between panels, g/G and Home/End,
    /// PgUp/PgDn (and Ctrl-B/Ctrl-F), `/` filter, `n`/`N` next/previous match, `:` command,
    /// `?` help, `p` pause, `+`/`-` refresh faster/slower (like btop; `=` and `_` too), Space
    /// mark (`V` a range, `*` all matching), `s`/`S` sort, `o` sort menu, `x` hex, `1`–`4`
    /// (and `t`) views, `W` statistics window, `d`/Del invalidate, `D` clear, `w` sweep,
    /// `u` undo, `m` mouse, Ctrl-L redraw, `r` rescan (a Redis keyspace), `q` quit.
    package static let defaults = KeyMap(checkedBindings: defaultBindings)

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
        .previousView: [.backspace],
        .nextPane: [.tab],
        .previousPane: [.backTab],
        .filter: [.character("/")],
        .nextMatch: [.character("n")],
        .previousMatch: [.character("N")],
        .command: [.character(":")],
        .help: [.character("?"), .function(1)],
        .pause: [.character("p")],
        .refreshFaster: [.character("+"), .character("=")],
        .refreshSlower: [.character("-"), .character("_")],
        .toggleMark: [.character(" ")],
        .markRange: [.character("V")],
        .markAllMatching: [.character("*")],
        .sortNext: [.character("s")],
        .reverseSort: [.character("S")],
        .sortMenu: [.character("o")],
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
        .rescan: [.character("r")],
        .quit: [.character("q")],
    ]

    /// A map of exactly `bindings`; throws when a key is bound to two actions.
    package init(bindings: [KeyAction: [Key]]) throws(KeyMapError) {
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
    package func applying(_ overrides: [KeyAction: [Key]]) throws(KeyMapError) -> KeyMap {
        let claimed = Set(overrides.values.joined())
        var bindings: [KeyAction: [Key]] = [:]
        for action in KeyAction.allCases {
            bindings[action] = overrides[action] ?? keys(for: action).filter { !claimed.contains($0) }
        }
        return try KeyMap(bindings: bindings)
    }
}
