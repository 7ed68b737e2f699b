import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import CacheCoreRedis
import Foundation

/// `cachedeck audit FILE|URL`: one bounded line per action (a purge of 77,000 keys names them
/// all in its target: the table cuts it with `…`; `--json` has it in full).
struct AuditCommand: ParsableCommand {
    /// The widest the action column gets, in terminal cells.
    static let actionWidth = 60

    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "List the actions taken on the file (or RedisStore), newest first.")

    @OptionGroup var store: ActionStoreArguments
    @Option(name: .shortAndLong, help: "How many actions to list.") var limit = 50
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignActionRunner.recognise(store.file, confirmation: ConfirmationArguments(), json: output.json) {
            return try foreign.audit(limit: limit)
        }
        let records = try store.controller(writable: false).auditLog(limit: limit)
        if output.json { return try JSONOutput.print(records) }
        let rows = records.map(AuditEntry.init).map { entry in
            [
                "#\(entry.id)", TimeText.timestamp(entry.at), entry.who,
                TerminalText.truncate(entry.action, toWidth: Self.actionWidth),
                Formatting.count(entry.entries), Formatting.bytes(entry.bytes),
                entry.isUndone ? "undone" : entry.canUndo ? "restore \(entry.id)" : Table.none,
            ]
        }
        print(Table(headers: ["id", "when", "who", "action", "entries", "bytes", "undo"], rows: rows).rendered)
    }
}
