import ArgumentParser
import CacheConsole
import CacheCore
import CacheCoreRedis
import ForeignCaches
import Foundation

/// `cachedeck import FILE [--namespace NS] [--input PATH] [--dry-run] [--yes] < export.jsonl`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read back what `cachedeck export` wrote into a namespace; audited and undoable.",
        discussion: """
            Reads JSON Lines (as export writes them) from standard input or --input, shows how many \
            entries are new, how many replace existing ones and their bytes, and writes them all in \
            one transaction: a bad line (with its number) imports nothing. Replaced entries go to the \
            trash; `cachedeck restore FILE N` deletes the imported entries nothing wrote since and \
            brings the replaced ones back. Cache files only.
            """)

    @OptionGroup var store: StoreArguments
    @Option(name: .shortAndLong, help: "Import into this namespace (default: the one the lines name).")
    var namespace: String?
    @Option(name: .shortAndLong, help: "Read this file instead of standard input.", completion: .file())
    var input: String?
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if RedisKeyspace.isURL(store.file) {
            throw Failure("import writes into cache files only; \(RedisEndpoint.redacted(store.file)) is a Redis URL")
        }
        if (try? ForeignCache.recognise(path: store.file)) != nil {
            throw Failure("import writes into CacheDeck cache files only; \(store.file) is another library's cache")
        }
        let data = try readInput()
        let (name, entries) = try EntryImportReader.entries(of: data, namespace: namespace)
        let file = try store.openForActions()
        let admin = file.admin
        let impact = try admin.previewImport(entries, into: name)
        let summary = ImportText.preview(impact, namespace: name)
        if confirmation.dryRun {
            if output.json { return try JSONOutput.print(ImportText.json(impact, auditID: nil)) }
            return print(summary + " (dry run: nothing was imported)")
        }
        if !output.json { FileHandle.standardError.write(Data((summary + "\n").utf8)) }
        guard
            try confirmation.confirmed(
                "Import?", refusal: "refusing to import without --yes (stdin is not a terminal); nothing was imported")
        else {
            FileHandle.standardError.write(Data("Cancelled; nothing was imported.\n".utf8))
            return
        }
        let outcome = try admin.importEntries(entries, into: name)
        if output.json { return try JSONOutput.print(ImportText.json(impact, auditID: outcome.auditID)) }
        print(
            "Imported \(Formatting.entries(outcome.removed)) into \(name) (\(Formatting.bytes(outcome.bytes))); "
                + "undo: cachedeck restore \(store.file) \(outcome.auditID)")
    }

    /// The whole input, from `--input` or standard input.
    private func readInput() throws -> Data {
        guard let input else { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: input) else { throw Failure("cannot read \(input)") }
        return data
    }
}

/// What `import` says of an import.
enum ImportText {
    /// `Import into tiles: 120 new, 30 replacing existing entries (4.1 kB to the trash), 1.2 MB.`
    static func preview(_ impact: ImportImpact, namespace: String) -> String {
        "Import into \(namespace): \(Formatting.count(impact.new)) new, \(Formatting.count(impact.replacing)) "
            + "replacing existing entries (\(Formatting.bytes(impact.replacedBytes)) to the trash), "
            + "\(Formatting.bytes(impact.bytes))."
    }

    /// The `--json` document: the preview's figures, and the audit row once imported.
    static func json(_ impact: ImportImpact, auditID: Int64?) -> [String: Int64] {
        var fields: [String: Int64] = [
            "new": Int64(impact.new), "replacing": Int64(impact.replacing),
            "replacedBytes": Int64(impact.replacedBytes), "bytes": Int64(impact.bytes),
        ]
        fields["auditID"] = auditID
        return fields
    }
}
