import CacheConsole
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
    let confirmation: ConfirmationArguments
    let json: Bool

    /// A runner acting on the file or Redis URL `store` names.
    init(store: ActionStoreArguments, confirmation: ConfirmationArguments, json: Bool) throws {
        self.init(
            controller: try store.controller(writable: true), storeName: store.commandLineName,
            confirmation: confirmation, json: json)
    }

    /// A runner acting through `controller` on the store later commands call `storeName`.
    init(controller: ActionController, storeName: String, confirmation: ConfirmationArguments, json: Bool) {
        self.controller = controller
        self.storeName = storeName
        self.confirmation = confirmation
        self.json = json
    }

    func run(_ target: AdminTarget) throws {
        let pending = try controller.prepare(target)
        if confirmation.dryRun {
            if json {
                try JSONOutput.print(DryRun(target: target, impact: pending.impact))
            } else {
                print("Dry run: \(pending.summary) Nothing was changed.")
            }
            return
        }
        let result: ActionResult
        if confirmation.yes {
            result = try run(pending, with: controller)
        } else {
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
            } else if result.outcome.removed > 0 && result.target.isUndoable {
                line += " The disk was full, so no undo copy was kept."
            }
            print(line)
        }
    }

    /// Runs a confirmed action, showing `done / total` on a terminal's standard error after
    /// every batch and stopping at Ctrl-C or SIGTERM.
    private func run(_ pending: PendingAction, with controller: ActionController) throws -> ActionResult {
        let interruption = Interruption()
        let showsProgress = isatty(STDERR_FILENO) == 1
        let result = try controller.run(confirmed: pending) { progress in
            if showsProgress {
                let line = "\r\(Formatting.count(progress.done)) of \(Formatting.count(progress.total)) entries…"
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
