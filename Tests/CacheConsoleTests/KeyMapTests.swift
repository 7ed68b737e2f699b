import CacheCoreRedis
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct KeyNotationTests {
    @Test(arguments: [
        ("q", Key.character("q")), ("G", .character("G")), ("/", .character("/")), ("界", .character("界")),
        ("space", .character(" ")), (" ", .character(" ")), ("Space", .character(" ")), ("ctrl-c", .control("c")),
        ("C-X", .control("x")), ("^a", .control("a")), ("ctrl+l", .control("l")), ("ctrl-h", .backspace),
        ("ctrl-i", .tab), ("ctrl-m", .enter), ("ctrl-j", .enter), ("ctrl-[", .escape), ("f5", .function(5)),
        ("F12", .function(12)), ("pgup", .pageUp), ("PageDown", .pageDown), ("shift-tab", .backTab), ("esc", .escape),
        ("Return", .enter), ("del", .delete), ("up", .up),
    ])
    func notationsParse(notation: String, key: Key) {
        #expect(Key(notation: notation) == key)
    }

    @Test(arguments: ["", "ab", "ctrl-1", "ctrl-", "f0", "f25", "f1x", "hyper-x", "\t", "\u{1B}", "\u{301}", "ctrl-ab"])
    func badNotationsAreRejected(notation: String) {
        #expect(Key(notation: notation) == nil)
    }

    @Test func notationsRoundTrip() {
        let keys: [Key] = [
            .character("x"), .character(" "), .character("界"), .control("q"), .up, .down, .left, .right, .home, .end,
            .pageUp, .pageDown, .insert, .delete, .enter, .escape, .backspace, .tab, .backTab, .function(7),
        ]
        for key in keys {
            #expect(Key(notation: key.notation) == key)
        }
    }

    @Test func labelsAreForHumans() {
        #expect(Key.up.label == "↑")
        #expect(Key.control("c").label == "Ctrl-C")
        #expect(Key.character(" ").label == "Space")
        #expect(Key.pageDown.label == "PgDn")
        #expect(Key.character("\u{7}").label == "\\x07")
    }
}

@Suite struct KeyMapTests {
    @Test func theDefaultsBindEveryKeyOnce() throws {
        let map = try KeyMap(bindings: Dictionary(uniqueKeysWithValues: KeyAction.allCases.map { ($0, $0.defaultKeys) }))
        #expect(map == KeyMap.defaults)
        for action in KeyAction.allCases {
            #expect(!KeyMap.defaults.keys(for: action).isEmpty, "\(action) has no default key")
        }
    }

    @Test(arguments: [
        (Key.up, KeyAction.moveUp), (.character("k"), .moveUp), (.down, .moveDown), (.character("j"), .moveDown),
        (.enter, .drillIn), (.right, .drillIn), (.character("l"), .drillIn), (.escape, .back), (.left, .back),
        (.character("h"), .back), (.backspace, .previousView), (.character("-"), .refreshSlower),
        (.character("+"), .refreshFaster), (.tab, .nextPane), (.backTab, .previousPane),
        (.character("g"), .top), (.character("G"), .bottom), (.home, .top), (.end, .bottom), (.pageUp, .pageUp),
        (.pageDown, .pageDown), (.character("/"), .filter), (.character(":"), .command), (.character("?"), .help),
        (.character("p"), .pause), (.character("+"), .refreshFaster), (.character("_"), .refreshSlower),
        (.character(" "), .toggleMark), (.character("q"), .quit), (.control("l"), .redraw),
    ])
    func defaultBindings(key: Key, action: KeyAction) {
        #expect(KeyMap.defaults.action(for: key) == action)
    }

    @Test func overridesReplaceAnActionsKeysAndTakeThemFromOthers() throws {
        let map = try KeyMap(
            parsing: """
                quit = ["ctrl-q", "x"]
                moveDown = "n"
                help = []
                filter = "q"
                """, source: "keys.toml")
        #expect(map.action(for: .control("q")) == .quit)
        #expect(map.action(for: .character("x")) == .quit)
        #expect(map.action(for: .character("q")) == .filter)
        #expect(map.action(for: .character("/")) == nil)
        #expect(map.keys(for: .moveDown) == [.character("n")])
        #expect(map.action(for: .down) == nil)
        #expect(map.keys(for: .help) == [])
        #expect(map.keys(for: .moveUp) == KeyMap.defaults.keys(for: .moveUp))
    }

    @Test func overridesCanStealADefaultKey() throws {
        let map = try KeyMap(parsing: "drillIn = [\"enter\", \"space\"]", source: "keys.toml")
        #expect(map.action(for: .character(" ")) == .drillIn)
        #expect(map.keys(for: .toggleMark) == [])
    }

    @Test(arguments: [
        ("quitt = \"q\"", ConfigError.Kind.unknownName, "quitt", "unknown action"),
        ("quit = \"hyper-q\"", .invalidValue, "quit", "unknown key 'hyper-q'"),
        ("quit = 3", .invalidValue, "quit", "expected a key name or a list of them, found an integer"),
        ("quit = [\"q\", true]", .invalidValue, "quit", "found a boolean"),
        ("quit = \"x\"\nfilter = \"x\"", .duplicateKey, "quit", "'x' is also bound to filter"),
    ])
    func badFilesNameTheActionAndProblem(text: String, kind: ConfigError.Kind, location: String, message: String) {
        do {
            _ = try KeyMap(parsing: text, source: "/config/keys.toml")
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.location == location)
            #expect(error.message.contains(message))
            #expect(error.description.hasPrefix("/config/keys.toml: \(location): "))
        }
    }

    @Test func syntaxErrorsNameTheLine() {
        do {
            _ = try KeyMap(parsing: "quit = \"q\"\nhelp = [\n", source: "/config/keys.toml")
            Issue.record("no error")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.description.hasPrefix("/config/keys.toml: line "))
        }
    }

    @Test func loadingReadsTheFileOrKeepsTheDefaults() throws {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("keys.toml")
        #expect(try KeyMap.load(from: missing) == .defaults)
        try folder.write("quit = \"Q\"\n", to: "keys.toml")
        #expect(try KeyMap.load(from: missing).action(for: .character("Q")) == .quit)
        try folder.write("quit = \"nope-key\"\n", to: "keys.toml")
        let (map, error) = KeyMap.loadOrDefaults(from: missing)
        #expect(map == .defaults)
        #expect(error?.source == missing.path)
        #expect(error?.kind == .invalidValue)
    }

    @Test func helpIsGeneratedFromTheLiveMapAndTheBindings() throws {
        let map = try KeyMap(parsing: "help = []\nquit = [\"q\", \"ctrl-c\"]", source: "keys.toml")
        let lines = HelpScreen.lines(map, isReadOnly: false)
        #expect(lines.contains { $0.keys == "↓, j" && $0.text == "Move down" })
        #expect(lines.contains { $0.keys == "q, Ctrl-C" && $0.text.hasPrefix("Quit") })
        #expect(lines.contains { $0.keys == "(unbound)" && $0.text.hasPrefix("Help") })
        // Every view's keys are in the help, the audit detail's too.
        for view in ConsoleViews.all {
            for binding in view.bindingSummaries {
                #expect(lines.contains { $0.text.hasPrefix(binding.help) }, "\(view.title): \(binding.help)")
            }
        }
        #expect(lines.contains { $0.text == AuditDetailView.title })
        // A Redis keyspace console's help lists its own views and leaves out the file's.
        let keyspace = HelpScreen.lines(map, isReadOnly: true, isKeyspace: true).map(\.text)
        #expect(keyspace.contains("Scan the keyspace again") && keyspace.contains("Open the prefix or key"))
        #expect(!keyspace.contains("Audit log") && !keyspace.contains { $0.hasPrefix("Invalidate") })
        // One that deletes keys (not read-only) lists deleting, the audit log and undo.
        let deleting = HelpScreen.lines(map, isReadOnly: false, isKeyspace: true).map(\.text)
        #expect(deleting.contains("Audit log") && deleting.contains { $0.hasPrefix("Delete the marked keys") })
        #expect(deleting.contains { $0.hasPrefix("Undo the last action") })
    }
}

@Suite struct ConfigPathsTests {
    @Test func xdgConfigHomeWinsWhenAbsolute() {
        let paths = ConfigPaths(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me"])
        #expect(paths.folder.path == "/xdg/cachedeck")
        #expect(paths.themesFolder.path == "/xdg/cachedeck/themes")
        #expect(paths.keyMapFile.path == "/xdg/cachedeck/keys.toml")
    }

    @Test func otherwiseTheHomeConfigFolder() {
        #expect(
            ConfigPaths(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/me"]).folder.path
                == "/home/me/.config/cachedeck")
        #expect(
            ConfigPaths(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/me"]).folder.path
                == "/home/me/.config/cachedeck")
    }
}
