import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches

/// `cachedeck sweep FILE [NAMESPACE]` (files only: Redis expires entries itself)
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Remove every expired entry (stale window or not; --keep-stale-window keeps those inside it).")

    @OptionGroup var store: StoreArguments
    @OptionGroup var scope: NamespaceArgument
    @Flag(
        help:
            "Keep expired entries still inside their stale window (apps serve them when their source fails), as automatic maintenance does. Another library's cache has no stale window."
    )
    var keepStaleWindow = false
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignActionRunner.recognise(store.file, confirmation: confirmation, json: output.json) {
            return try foreign.sweep(namespace: scope.namespace)
        }
        try ActionRunner(file: try store.openForActions(), confirmation: confirmation, json: output.json)
            .run(.sweep(namespace: scope.namespace, keepingStaleWindow: keepStaleWindow))
    }
}

/// `cachedeck clear FILE|URL NAMESPACE|--all`
struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every entry of a namespace (or of all, with --all); undoable.")

    @OptionGroup var store: ActionStoreArguments
    @Argument(help: "The namespace to clear.") var namespace: String?
    @Flag(help: "Clear every namespace.") var all = false
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if all == (namespace != nil) { throw ValidationError("give a namespace or --all (not both)") }
    }

    func run() throws {
        try ActionRunner(store: store, confirmation: confirmation, json: output.json)
            .run(namespace.map { .clear(namespace: $0) } ?? .clearAll)
    }
}

/// `cachedeck invalidate FILE|URL NAMESPACE (--key K… | --prefix P | --tag T | --filter F)`
struct InvalidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invalidate",
        abstract: "Remove entries by key, prefix, tag or filter; running apps drop their memory copies. Undoable.",
        discussion: SelectorArguments.discussion)

    @OptionGroup var store: ActionStoreArguments
    @OptionGroup var entries: SelectedEntries
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignActionRunner.recognise(store.file, confirmation: confirmation, json: output.json) {
            return try foreign.run(try entries.selection.foreignSelection(), namespace: entries.namespace ?? "")
        }
        let runner = try ActionRunner(store: store, confirmation: confirmation, json: output.json)
        try runner.run(.invalidate(try entries.selector(filters: runner.filters)))
    }
}

/// `cachedeck ttl FILE|URL NAMESPACE (now | never | 1h | +30m) (--key K… | --prefix P | --tag T | --filter F)`
struct TTLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ttl",
        abstract: "Change when entries expire: now, never, a new TTL or an extension. Undoable.",
        discussion: """
            CHANGE is `now`, `never`, a TTL from now (`90s`, `1h`, `7d`) or an extension (`+30m`, \
            `-5m`). Each entry keeps its stale window's length; entries that never expire stay so \
            when extended. Running apps drop their memory copies.

            \(SelectorArguments.discussion)
            """)

    @OptionGroup var store: ActionStoreArguments
    @Argument(help: "The namespace (optional with --tag: all namespaces).") var namespace: String?
    @Argument(help: "now, never, a TTL (1h) or an extension (+30m).") var change: String
    @OptionGroup var selection: SelectorArguments
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        try selection.validate(namespace: namespace)
        do {
            _ = try ExpiryChange(parsing: change)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let runner = try ActionRunner(store: store, confirmation: confirmation, json: output.json)
        try runner.run(
            .expiry(
                selector: try selection.selector(namespace: namespace, filters: runner.filters),
                change: try ExpiryChange(parsing: change)))
    }
}

/// `cachedeck expire FILE|URL NAMESPACE (--key K… | --prefix P | --tag T | --filter F)`: `ttl … now`.
struct ExpireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire",
        abstract: "Expire entries now (reads miss them; sweeps remove them). Undoable.",
        discussion: SelectorArguments.discussion)

    @OptionGroup var store: ActionStoreArguments
    @OptionGroup var entries: SelectedEntries
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        let runner = try ActionRunner(store: store, confirmation: confirmation, json: output.json)
        try runner.run(.expiry(selector: try entries.selector(filters: runner.filters), change: .expireNow))
    }
}

/// The entries an action selects: a namespace (optional with a tag) and one of `--key`,
/// `--prefix`, `--tag` or `--filter`.
struct SelectedEntries: ParsableArguments {
    @Argument(help: "The namespace (optional with --tag: all namespaces).") var namespace: String?
    @OptionGroup var selection: SelectorArguments

    func validate() throws { try selection.validate(namespace: namespace) }

    func selector(filters: FilterSelector) throws -> InvalidationSelector {
        try selection.selector(namespace: namespace, filters: filters)
    }
}

/// How every action command selects entries: keys, a key prefix, a tag, or filter terms (the
/// console's `/` filter, through the same ``FilterSelector``).
struct SelectorArguments: ParsableArguments {
    /// What `--filter` does, for the commands' help.
    static let discussion = """
        --filter takes the terms ls and the console's / filter take (text, prefix:P, tag:T, regex:R, \
        ttl<5m, age>1d, size>1KB, hits=0, expired, never), all of which must hold. The preview counts \
        the entries it matches now, and the action removes exactly those (at most \
        \(Formatting.count(FilterSelector.maximumKeys)) listed keys; a lone prefix: or tag: has no limit).
        """

    @Option(name: .shortAndLong, parsing: .singleValue, help: "A key (canonical text); repeat for several.")
    var key: [String] = []
    @Option(help: "Keys one per line from this file (- for standard input), for lists too long for --key.")
    var keysFrom: String?
    @Option(name: .shortAndLong, help: "Every key starting with this text.") var prefix: String?
    @Option(name: .shortAndLong, help: "Every entry carrying this tag.") var tag: String?
    @Option(name: .shortAndLong, help: "Every entry matching these filter terms, e.g. \"age>7d hits=0\".")
    var filter: String?

    func validate(namespace: String?) throws {
        let given = [!key.isEmpty || keysFrom != nil, prefix != nil, tag != nil, filter != nil].filter { $0 }.count
        if given != 1 { throw ValidationError("give exactly one of --key (or --keys-from), --prefix, --tag or --filter") }
        if tag == nil && namespace == nil { throw ValidationError("--key, --prefix and --filter need a namespace") }
        if let filter {
            do {
                _ = try EntryFilter(parsing: filter)
            } catch {
                throw ValidationError("--filter: \(error)")
            }
        }
    }

    /// The selection on a foreign cache: keys, or a filter (a prefix or tag is one).
    func foreignSelection() throws -> ForeignSelection {
        if let keys = try keys() { return .keys(keys) }
        let terms: [EntryFilterTerm] =
            if let prefix { [.keyPrefix(prefix)] } else if let tag { [.tag(tag)] } else { [] }
        return .filter(try filter.map { try EntryFilter(parsing: $0) } ?? EntryFilter(terms))
    }

    /// The selector, in `namespace` (every namespace for a tag without one); a filter's
    /// entries are found with `filters`.
    func selector(namespace: String?, filters: FilterSelector) throws -> InvalidationSelector {
        if let tag { return .tag(tag, namespace: namespace) }
        guard let namespace else { throw ValidationError("--key, --prefix and --filter need a namespace") }
        if let filter { return try filters.selector(namespace: namespace, filter: filter) }
        if let prefix { return .prefix(namespace: namespace, prefix: prefix) }
        let keys = try keys() ?? []
        return keys.count == 1 ? .key(namespace: namespace, key: keys[0]) : .keys(namespace: namespace, keys: keys)
    }

    /// The keys given with `--key` and `--keys-from` (read once: standard input is read to its
    /// end), or `nil` when neither was.
    private func keys() throws -> [String]? {
        guard !key.isEmpty || keysFrom != nil else { return nil }
        return try key + (keysFrom.map(KeyList.read) ?? [])
    }
}

/// `cachedeck restore FILE|URL AUDIT_ID` (alias `undo`)
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Undo an action: bring back what it removed (see `cachedeck audit`).",
        aliases: ["undo"])

    @OptionGroup var store: ActionStoreArguments
    @Argument(help: "The action's number in the audit log.") var auditID: Int64
    @Flag(name: .shortAndLong, help: "Accepted like every action's; a restore removes nothing and never asks.")
    var yes = false
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignActionRunner.recognise(store.file, confirmation: ConfirmationArguments(), json: output.json) {
            return try foreign.undo(auditID)
        }
        let outcome = try store.controller(writable: true).undo(UndoHandle(auditID: auditID, summary: "#\(auditID)"))
        if output.json {
            try JSONOutput.print(["restored": outcome.restored])
        } else {
            print(outcome.sentence(auditID: auditID))
        }
    }
}
