import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import CacheCoreRedis
import Foundation

/// `cachedeck audit FILE|URL`
struct AuditCommand: ParsableCommand {
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
        let rows = records.map { record in
            [
                "#\(record.id)", Date(timeIntervalSince1970: Double(record.at) / 1000).formatted(.iso8601),
                "\(record.origin.user)@\(record.origin.host)",
                record.target.map { "\($0)" }
                    ?? "restore #\(record.restoredAuditID ?? 0)",
                Formatting.count(record.entries), Formatting.bytes(record.bytes),
                record.undoneAt != nil ? "undone" : record.canUndo ? "restore \(record.id)" : "—",
            ]
        }
        print(Table(headers: ["id", "when", "who", "action", "entries", "bytes", "undo"], rows: rows).rendered)
    }
}
