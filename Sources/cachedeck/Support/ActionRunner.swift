import CacheConsole
import CacheCore
import Foundation

/// Runs one destructive command through the action controller: preview, confirmation on a
/// terminal (or `--yes`), run, and a one-line report with the undo command.
struct ActionRunner {
    let store: CacheStore
    let confirmation: ConfirmationArguments
    let json: Bool

    func run(_ target: AdminTarget) throws {
        let controller = ActionController(store: store)
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
            result = try controller.run(confirmed: pending)
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Failure(
                    "refusing to \(target) without --yes (stdin is not a terminal); --dry-run shows the impact")
            }
            FileHandle.standardError.write(Data((pending.prompt + " ").utf8))
            let answer = readLine() ?? ""
            guard let confirmed = try controller.run(pending, answer: answer) else {
                FileHandle.standardError.write(Data("Cancelled; nothing was changed.\n".utf8))
                return
            }
            result = confirmed
        }
        if json {
            try JSONOutput.print(result.outcome)
        } else {
            var line =
                "Removed \(Formatting.count(result.outcome.removed)) entries (\(Formatting.bytes(result.outcome.bytes)))."
            if let undo = result.undo {
                line += " Undo with: cachedeck restore \(store.path) \(undo.auditID)"
            } else if result.outcome.removed > 0 && result.target.isUndoable {
                line += " The disk was full, so no undo copy was kept."
            }
            print(line)
        }
    }

    private struct DryRun: Encodable {
        let target: AdminTarget
        let impact: ActionImpact
    }
}
