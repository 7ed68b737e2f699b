import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// `cachedeck export FILE NAMESPACE [--filter F] [--key K]… [--output PATH]`
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a namespace's entries (or those a filter matches) as JSON Lines, values included.",
        discussion: """
            One object per line: {"namespace", "key", "value" (the value itself when it is JSON) or \
            "valueBase64", "tags", "createdAt", "expiresAt", "staleUntil", "version"}. "key" is the \
            canonical key, as ls prints it and show takes it. Times are milliseconds since the epoch.
            """)

    @OptionGroup var store: StoreArguments
    @Argument(help: "The namespace.") var namespace: String
    @Option(name: .shortAndLong, help: "Only entries matching every term (as for ls).") var filter = ""
    @Option(name: .shortAndLong, parsing: .singleValue, help: "Only this key (canonical text); repeat for several.")
    var key: [String] = []
    @Option(
        name: .shortAndLong, help: "Write to this file (created with the cache file's permissions) instead of standard output.",
        completion: .file())
    var output: String?
    @OptionGroup var confirmation: ConfirmationArguments

    func run() throws {
        let opened = try store.openForReading()
        let inspector = opened.inspector
        _ = try inspector.namespace(namespace)
        var request = ExportRequest(
            namespace: namespace, filter: filter, keys: key.isEmpty ? nil : key, path: output ?? "-")
        if output != nil, FileManager.default.fileExists(atPath: request.path) {
            guard
                try confirmation.confirmed(
                    "Replace \(request.path)?",
                    refusal: "refusing to replace \(request.path) without --yes (stdin is not a terminal)")
            else {
                FileHandle.standardError.write(Data("Cancelled; nothing was written.\n".utf8))
                return
            }
            request.replacing = true
        }
        request.takePermissions(ofFileAt: opened.path)
        let count: Int
        do {
            if output != nil {
                count = try EntryExporter.export(request, from: inspector)
            } else {
                count = try EntryExporter.export(request, from: inspector) { FileHandle.standardOutput.write($0) }
            }
        } catch let error as EntryFilterError {
            throw ValidationError("--filter: \(error.description)")
        }
        if output != nil {
            FileHandle.standardError.write(
                Data("Exported \(Formatting.entries(count)) to \(request.path).\n".utf8))
        }
    }
}
