import CacheConsole
import CacheCore
import ForeignCaches
import Foundation
import TerminalUI

/// Destructive commands on a cache another library wrote: the preview's count, a typed
/// confirmation on a terminal (that count) or `--yes`, the run, and the undo command. What
/// is removed goes to the CacheDeck trash beside the cache.
struct ForeignActionRunner {
    let cache: ForeignCache
    let confirmation: ConfirmationArguments
    let json: Bool

    /// The foreign cache at `path`, when it is one.
    static func recognise(_ path: String, confirmation: ConfirmationArguments, json: Bool) -> ForeignActionRunner? {
        guard let cache = try? ForeignCache.recognise(path: path) else { return nil }
        return ForeignActionRunner(cache: cache, confirmation: confirmation, json: json)
    }

    private var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Sweeps expired entries of `namespace`, or of every namespace.
    func sweep(namespace: String?) throws {
        guard cache.facts.expiry else {
            throw Failure(
                "a \(cache.kind.rawValue) cache records no expiry; delete old entries with "
                    + "`cachedeck invalidate FILE NAMESPACE --filter \"age>7d\"`")
        }
        for name in try namespace.map { [$0] } ?? cache.namespaceNames() {
            try run(.expired, namespace: name)
        }
    }

    /// Previews, confirms and runs `selection` on `namespace`.
    func run(_ selection: ForeignSelection, namespace: String) throws {
        let preview = try cache.preview(selection, namespace: namespace, now: now)
        let also = preview.dependents > 0 ? " and \(Formatting.count(preview.dependents)) redirects pointing at them" : ""
        let summary =
            "\(preview.summary) in \(TerminalText.sanitize(namespace)): \(Formatting.entries(preview.entries)) "
            + "(\(Formatting.bytes(Int(clamping: preview.bytes))))\(also)"
        if confirmation.dryRun {
            if json {
                return try JSONOutput.print(
                    ["entries": preview.entries, "bytes": Int(clamping: preview.bytes), "dependents": preview.dependents])
            }
            return print("Dry run: \(summary). Nothing was changed.")
        }
        guard preview.entries > 0 else {
            if json { return try JSONOutput.print(["removed": 0]) }
            return print("Nothing to do: \(summary).")
        }
        if !confirmation.yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Failure("refusing to \(preview.summary) without --yes (stdin is not a terminal); --dry-run shows it")
            }
            FileHandle.standardError.write(Data("\(summary). Type \(preview.entries) to remove them: ".utf8))
            guard (readLine() ?? "").trimmingCharacters(in: .whitespaces) == "\(preview.entries)" else {
                FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
                return
            }
        }
        let result = try cache.run(preview, now: now)
        if json { return try JSONOutput.print(result) }
        var line = "Removed \(Formatting.entries(result.removed)) from \(TerminalText.sanitize(namespace))"
        if result.dependentsRemoved > 0 { line += " and \(Formatting.count(result.dependentsRemoved)) redirects" }
        if result.skipped > 0 { line += "; \(Formatting.count(result.skipped)) had changed or gone since the preview" }
        print(line + ". Undo with: cachedeck restore \(Shell.quoted(cache.path)) \(result.actionID)")
    }

    /// Undoes action `id`.
    func undo(_ id: Int64) throws {
        let restored = try cache.undo(action: id, now: now)
        if json { return try JSONOutput.print(["restored": restored]) }
        print("Restored \(Formatting.entries(restored)) of action #\(id).")
    }

    /// The actions in the trash.
    func audit(limit: Int) throws {
        let records = Array(try cache.actions().prefix(limit))
        if json { return try JSONOutput.print(records) }
        print(
            Table(
                headers: ["id", "when", "namespace", "action", "entries", "bytes", "undo"],
                rows: records.map { record in
                    [
                        "#\(record.id)", TimeText.timestamp(record.at), TerminalText.sanitize(record.namespace),
                        TerminalText.sanitize(record.summary), Formatting.count(record.entries),
                        Formatting.bytes(Int(clamping: record.bytes)),
                        record.undoneAt == nil ? "restore \(record.id)" : "undone",
                    ]
                }, textColumns: [2, 3]
            ).rendered)
    }
}
