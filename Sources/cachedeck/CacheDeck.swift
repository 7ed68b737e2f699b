import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// `cachedeck`: inspect, watch and purge CacheDeck cache files.
struct CacheDeck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachedeck",
        abstract: "Inspect, watch and safely purge CacheDeck cache files.",
        usage: """
            cachedeck [FILE] [--read-only] [--theme NAME] [--refresh SECONDS]
            cachedeck redis://[user:password@]host:port/db
            cachedeck <subcommand>
            """,
        discussion: """
            `cachedeck FILE` opens the full-screen console; `cachedeck redis://host:port/0` browses any Redis keyspace \
            read-only (also `keys`, `key`, `info` and `slowlog URL`). Read commands print a table, or JSON with --json. Destructive commands show what they \
            would remove, ask on a terminal, and need --yes otherwise; --dry-run only shows it. \
            Exit codes: 0 success, 1 failure, 2 usage.
            """,
        subcommands: [
            ConsoleCommand.self, InfoCommand.self, NamespacesCommand.self, ListCommand.self, ShowCommand.self,
            TimelineCommand.self, StatsCommand.self, CheckCommand.self, SweepCommand.self, ClearCommand.self,
            InvalidateCommand.self, ExpireCommand.self, TTLCommand.self, RestoreCommand.self, AuditCommand.self,
            PurgeCommand.self, CompactCommand.self, ExportCommand.self, ImportCommand.self, MetricsCommand.self,
            KeysCommand.self, KeyCommand.self, DeleteKeysCommand.self, SlowLogCommand.self,
            DemoCommand.self,
        ],
        defaultSubcommand: ConsoleCommand.self
    )
}

/// Runs the command line: usage errors exit 2, failures exit 1 with one line on stderr.
@main
enum Main {
    static func main() async {
        CommandLineSecrets.hideFromProcessList()
        do {
            var command = try CacheDeck.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = CacheDeck.exitCode(for: error)
            if code == .success {
                CacheDeck.exit(withError: error)
            }
            if code == .validationFailure {
                let lines = CacheDeck.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
                let message = lines.map { TerminalText.sanitize(CommandLineSecrets.redacted(String($0))) }
                    .joined(separator: "\n")
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            // Error texts carry the file's bytes (names, SQLite messages raised by its triggers)
            // and the arguments: shown with visible escapes, never as terminal controls.
            var line = Failure.describe(error)
            switch error {
            case CacheError.untrusted: line += " (--allow-writable opens it anyway)"
            case CacheError.damaged(let path, _):
                line += "; `cachedeck check \(path) --fix` salvages the readable entries"
            default: break
            }
            let shown = TerminalText.sanitize(CommandLineSecrets.redacted(line))
            FileHandle.standardError.write(Data("cachedeck: \(shown)\n".utf8))
            Foundation.exit(1)
        }
    }
}
