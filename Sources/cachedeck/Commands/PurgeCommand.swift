import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// `cachedeck purge FILE`: empties the trash.
struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Empty the trash: delete what actions kept for undo (they can no longer be undone).",
        discussion: """
            Maintenance does it after 7 days. On a full disk this is what frees the space the trash holds \
            (a clear or invalidation run while the disk was not full kept its entries there).
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        let cache = try store.openForActions()
        let trash = try cache.admin.trashSize()
        let summary =
            "The trash holds \(Formatting.count(trash.entries)) \(trash.entries == 1 ? "entry" : "entries") "
            + "(\(Formatting.bytes(trash.bytes))) kept for undo."
        if confirmation.dryRun {
            if output.json { return try JSONOutput.print(trash) }
            return print("Dry run: \(summary) Nothing was changed.")
        }
        guard
            try confirmation.confirmed(
                "\(summary) Delete it for good?",
                refusal: "refusing to purge the trash without --yes (stdin is not a terminal); --dry-run shows it")
        else {
            FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
            return
        }
        let wasFull = try cache.diskSpace().isFullForRemovals
        let purged = try cache.admin.purgeTrash(olderThan: .zero)
        if output.json { return try JSONOutput.print(["purged": purged]) }
        var line =
            "Purged the trash: deleted \(Formatting.count(purged)) \(purged == 1 ? "entry" : "entries"); "
            + "their actions can no longer be undone."
        if wasFull { line += " " + ActionRunner.room(try cache.diskSpace(), retry: false) }
        print(line)
    }
}
