import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// Runs one destructive command through the action controller: preview, confirmation on a
/// terminal (or `--yes`), run, and a one-line report with the undo command. A long action
/// shows its progress on a terminal's standard error, and Ctrl-C stops it where it is (what
/// it removed until then can be undone as usual).
struct ActionRunner {
    let controller: ActionController
    /// How the undo command names the store (a path, or a URL without its password).
    let storeName: String
    /// The cache file acted on (`nil` for Redis), for what a full disk leaves.
    let file: CacheStore?
    /// How `--filter` finds the entries it selects.
    let filters: FilterSelector
    let confirmation: ConfirmationArguments
    let json: Bool

    /// A runner acting on the file or Redis URL `store` names.
    init(store: ActionStoreArguments, confirmation: ConfirmationArguments, json: Bool) throws {
        try self.init(store: store, opened: try store.open(writable: true), confirmation: confirmation, json: json)
    }

    /// A runner acting on what `store.open(writable: true)` opened.
    init(
        store: ActionStoreArguments, opened: (controller: ActionController, file: CacheStore?, filters: FilterSelector),
        confirmation: ConfirmationArguments, json: Bool
    ) throws {
        self.init(
            controller: opened.controller, storeName: store.commandLineName, file: opened.file,
            filters: opened.filters, confirmation: confirmation, json: json)
    }

    /// A runner acting on the cache file `file`.
    init(file: CacheStore, confirmation: ConfirmationArguments, json: Bool) {
        self.init(
            controller: ActionController(store: file), storeName: file.path, file: file, filters: .file(file),
            confirmation: confirmation, json: json)
    }

    private init(
        controller: ActionController, storeName: String, file: CacheStore?, filters: FilterSelector,
        confirmation: ConfirmationArguments, json: Bool
    ) {
        self.controller = controller
        self.storeName = storeName
        self.file = file
        self.filters = filters
        self.confirmation = confirmation
        self.json = json
    }

    func run(_ target: AdminTarget) throws {
        let pending = try controller.prepare(target)
        if confirmation.dryRun {
            if json {
                try JSONOutput.print(DryRun(target: target, impact: pending.impact))
            } else {
                let warning = pending.diskFullWarning.map { " " + $0 } ?? ""
                print("Dry run: \(pending.summary)\(warning) Nothing was changed.")
            }
            return
        }
        let result: ActionResult
        if confirmation.yes {
            result = try run(pending, with: controller)
        } else {
            guard pending.impact.entries > 0 else {
                print("\(ActionText.title(target)): nothing to do (it selects no entries). Nothing was changed.")
                return
            }
            guard isatty(STDIN_FILENO) == 1 else {
                throw Failure(
                    "refusing to \(target) without --yes (stdin is not a terminal); --dry-run shows the impact")
            }
            FileHandle.standardError.write(Data((pending.prompt + " ").utf8))
            let answer = readLine() ?? ""
            guard pending.accepts(answer) else {
                FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
                return
            }
            result = try run(pending, with: controller)
        }
        if json {
            try JSONOutput.print(result.outcome)
        } else {
            var line =
                (result.outcome.isCancelled ? "Stopped by Ctrl-C. " : "")
                + ActionText.done(result)
            if let undo = result.undo {
                line += " Undo with: cachedeck restore \(storeName) \(undo.auditID)"
            }
            if result.outcome.wasDiskFull, let file {
                line += " " + Self.room(try file.diskSpace(), retry: result.outcome.notRemoved > 0)
                let trash = try file.admin.trashSize()
                if trash.entries > 0 {
                    line +=
                        " The trash holds \(Formatting.count(trash.entries)) more (\(Formatting.bytes(trash.bytes))) kept "
                        + "for undo by earlier actions: `cachedeck purge \(file.path)` deletes them."
                }
            }
            print(line)
        }
        if result.outcome.notRemoved > 0 {
            throw Failure(
                "\(Formatting.entries(result.outcome.notRemoved)) of \(storeName) were not removed: "
                    + "the disk has no room left even to delete one")
        }
    }

    /// The room after an action on a full disk: what new entries have, or why the app still
    /// cannot write (the `-wal` cannot be copied into the file), and what to do.
    static func room(_ space: DiskSpace, retry: Bool) -> String {
        let free = Formatting.bytes(space.filesystemFree)
        if space.logBytes > space.filesystemFree {
            let log = Formatting.bytes(space.logBytes)
            return "Its write-ahead log (\(log)) cannot be copied into the file while the filesystem has \(free) free: "
                + "free \(log) there" + (retry ? ", then run this again." : " before the app can write again.")
        }
        return "Room for new entries: \(Formatting.bytes(space.fileFree)) free inside the file and \(free) on the "
            + "filesystem." + (retry ? " Free space on the filesystem, then run this again." : "")
    }

    /// Runs a confirmed action, showing `done / total` on a terminal's standard error after
    /// every batch and stopping at Ctrl-C or SIGTERM.
    private func run(_ pending: PendingAction, with controller: ActionController) throws -> ActionResult {
        let interruption = Interruption()
        let showsProgress = isatty(STDERR_FILENO) == 1
        let result = try controller.run(confirmed: pending) { progress in
            if showsProgress {
                let line = "\r\(Formatting.count(progress.done)) of \(Formatting.entries(progress.total))…"
                FileHandle.standardError.write(Data(line.utf8))
            }
            return !interruption.happened
        }
        if showsProgress && result.outcome.removed > 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return result
    }

    private struct DryRun: Encodable {
        let target: AdminTarget
        let impact: ActionImpact
    }
}
