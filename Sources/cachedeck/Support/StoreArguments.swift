import ArgumentParser
import CacheCore
import CacheCoreRedis
import Foundation

/// The cache file a command works on (or, for the commands that take one, a RedisStore's URL).
struct StoreArguments: ParsableArguments {
    @Argument(help: "The cache file (.sqlite).", completion: .file())
    var file: String

    @Flag(help: "Open a file (or -wal) that users other than its owner may write.")
    var allowWritable = false

    /// Opens the file for reading only: never created, moved or changed.
    func openForReading() throws -> CacheStore {
        try Self.openForReading(file, allowWritable: allowWritable)
    }

    /// Opens `file` for reading only.
    static func openForReading(_ file: String, allowWritable: Bool) throws -> CacheStore {
        if RedisKeyspace.isURL(file) { throw RedisArguments.fileOnly(file) }
        return try CacheStore(path: file, options: inspection(writable: false, allowWritable: allowWritable))
    }

    /// The options operators open files with: ``FileTrust/inspector``, or no check at all
    /// with `--allow-writable`.
    static func inspection(writable: Bool, allowWritable: Bool) -> StoreOptions {
        var options = StoreOptions.inspection(writable: writable)
        if allowWritable { options.fileTrust = .any }
        return options
    }

    /// Opens the file to run actions on it: never created or moved aside.
    func openForActions() throws -> CacheStore {
        try Self.openForActions(file, allowWritable: allowWritable)
    }

    /// Opens `file` to run actions on it.
    static func openForActions(_ file: String, allowWritable: Bool) throws -> CacheStore {
        if RedisKeyspace.isURL(file) { throw RedisArguments.fileOnly(file) }
        do {
            return try CacheStore(path: file, options: inspection(writable: true, allowWritable: allowWritable))
        } catch let error as CacheError where error == .readOnly(path: file) {
            throw Failure("\(error) (read commands and the --read-only console still work)")
        }
    }
}

/// `--json` for read commands.
struct OutputArguments: ParsableArguments {
    @Flag(help: "Print JSON (a stable, documented shape) instead of a table.")
    var json = false
}

/// `--yes` and `--dry-run` for destructive commands.
struct ConfirmationArguments: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Do not ask; required when stdin is not a terminal.")
    var yes = false

    @Flag(help: "Show what would be removed, change nothing.")
    var dryRun = false

    /// Whether to go ahead: yes with `--yes`, else the answer to `question` on a terminal;
    /// throws `refusal` (one line, exit 1) when stdin is not a terminal.
    func confirmed(_ question: String, refusal: String) throws -> Bool {
        if yes { return true }
        guard isatty(STDIN_FILENO) == 1 else { throw Failure(refusal) }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        return ["y", "yes"].contains((readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// An optional namespace, named like every command names it: the argument after the file.
/// `-n`/`--namespace NAME`, the older spelling of `sweep` and `stats`, still works (hidden).
struct NamespaceArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("Only this namespace (default: all).", valueName: "namespace"))
    var positional: String?
    @Option(name: [.customShort("n"), .customLong("namespace")], help: .hidden) var option: String?

    /// The namespace given, if any.
    var namespace: String? { positional ?? option }

    func validate() throws {
        if let positional, let option, positional != option {
            throw ValidationError("the namespace is given twice ('\(positional)' and '\(option)')")
        }
    }
}
