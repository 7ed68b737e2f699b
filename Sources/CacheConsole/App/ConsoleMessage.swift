import TerminalUI
import CacheCore

/// Everything that reaches the console's controller: input, clock ticks and the results of
/// the work its effects started.
package enum ConsoleMessage: Sendable {
    /// A key, mouse or resize event.
    case input(InputEvent)
    /// Time passed; `now` is milliseconds since the epoch.
    case tick(now: Int64)
    /// Reads finished.
    case loaded([LoadResult])
    /// A refresh checked the file: `changed` tells whether anything was committed; `results`
    /// holds the reloaded data (empty when nothing was reloaded).
    case refreshed(changed: Bool, results: [LoadResult])
    /// An action was measured and waits for confirmation.
    case prepared(PendingAction)
    /// A running action got this far.
    case progress(ActionProgress)
    /// An action ran (`nil`: the answer did not confirm it).
    case ran(ActionResult?)
    /// A compaction got this far.
    case compacting(CompactionProgress)
    /// A compaction finished.
    case compacted(CompactionOutcome)
    /// `count` entries were exported to `path`.
    case exported(count: Int, path: String)
    /// An action was undone: `restored` entries came back.
    case undone(auditID: Int64, outcome: UndoOutcome)
    /// An action, undo or refresh check failed.
    case failed(ConsoleError)
    /// The runtime did something the operator should hear of (a value copied or paged).
    case notice(String, isError: Bool)
}

/// Work the controller asks the runtime to do; reads and actions run off the terminal's
/// thread and come back as ``ConsoleMessage``s.
package enum ConsoleEffect: Sendable, Hashable {
    /// Run these reads in order.
    case load([LoadRequest])
    /// Check the file for commits; run `loads` if it changed, if `force`, or if the
    /// controller knows it is stale.
    case refresh(loads: [LoadRequest], force: Bool)
    /// Measure an action.
    case prepare(ActionRequest)
    /// Run a measured action with the operator's answer, until `stop` asks it to stop.
    case run(PendingAction, answer: String, stop: ActionStop)
    /// Undo an action.
    case undo(auditID: Int64)
    /// Export entries as JSON Lines.
    case export(ExportRequest)
    /// Give the file's free pages and WAL back to the filesystem, until `stop` asks it to stop.
    case compact(stop: ActionStop)
    /// Draw with this theme from now on.
    case applyTheme(Theme)
    /// Turn mouse reporting on or off.
    case setMouseReporting(Bool)
    /// Clear the terminal and draw the next frame whole.
    case redrawAll
    /// Copy text to the clipboard or show it in `$PAGER`.
    case handOff(ValueHandoff)
    /// Leave the console.
    case quit
}
