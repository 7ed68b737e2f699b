import ArgumentParser
import CacheCore

/// `cachedeck sweep FILE [NAMESPACE]`
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep", abstract: "Remove entries past their expiry and stale window.")

    @OptionGroup var store: StoreArguments
    @OptionGroup var scope: NamespaceArgument
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        try ActionRunner(store: try store.openForActions(), confirmation: confirmation, json: output.json)
            .run(.sweep(namespace: scope.namespace))
    }
}

/// `cachedeck clear FILE NAMESPACE|--all`
struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every entry of a namespace (or of all, with --all); undoable.")

    @OptionGroup var store: StoreArguments
    @Argument(help: "The namespace to clear.") var namespace: String?
    @Flag(help: "Clear every namespace.") var all = false
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if all == (namespace != nil) { throw ValidationError("give a namespace or --all (not both)") }
    }

    func run() throws {
        try ActionRunner(store: try store.openForActions(), confirmation: confirmation, json: output.json)
            .run(namespace.map { .clear(namespace: $0) } ?? .clearAll)
    }
}

/// `cachedeck invalidate FILE NAMESPACE (--key K… | --prefix P | --tag T)`
struct InvalidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invalidate",
        abstract: "Remove entries by key, prefix or tag; running apps drop their memory copies. Undoable.")

    @OptionGroup var store: StoreArguments
    @Argument(help: "The namespace (optional with --tag: all namespaces).") var namespace: String?
    @Option(name: .shortAndLong, parsing: .singleValue, help: "A key (canonical text); repeat for several.")
    var key: [String] = []
    @Option(name: .shortAndLong, help: "Every key starting with this text.") var prefix: String?
    @Option(name: .shortAndLong, help: "Every entry carrying this tag.") var tag: String?
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        let given = [!key.isEmpty, prefix != nil, tag != nil].filter { $0 }.count
        if given != 1 { throw ValidationError("give exactly one of --key, --prefix or --tag") }
        if tag == nil && namespace == nil { throw ValidationError("--key and --prefix need a namespace") }
    }

    func run() throws {
        let selector: InvalidationSelector
        if let tag {
            selector = .tag(tag, namespace: namespace)
        } else if let prefix, let namespace {
            selector = .prefix(namespace: namespace, prefix: prefix)
        } else if let namespace {
            selector = key.count == 1 ? .key(namespace: namespace, key: key[0]) : .keys(namespace: namespace, keys: key)
        } else {
            throw ValidationError("--key and --prefix need a namespace")
        }
        try ActionRunner(store: try store.openForActions(), confirmation: confirmation, json: output.json)
            .run(.invalidate(selector))
    }
}

/// `cachedeck restore FILE AUDIT_ID`
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Undo an action: bring back what it removed (see `cachedeck audit`).")

    @OptionGroup var store: StoreArguments
    @Argument(help: "The action's number in the audit log.") var auditID: Int64
    @OptionGroup var output: OutputArguments

    func run() throws {
        let restored = try store.openForActions().admin.restore(auditID)
        if output.json {
            try JSONOutput.print(["restored": restored])
        } else {
            print("Restored \(restored) entries removed by action #\(auditID).")
        }
    }
}
