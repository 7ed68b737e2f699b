import TerminalUI
import CacheCore

extension ConsoleController {
    /// Measures an action (the confirmation dialog opens when the preview arrives).
    mutating func startAction(_ request: ActionRequest, title: String) -> [ConsoleEffect] {
        guard mayStart("actions are") else { return [] }
        model.busy = BusyState(title: "Measuring \(title)", since: model.now)
        return [.prepare(request)]
    }

    /// Undoes the action with audit id `auditID`.
    mutating func startUndo(_ auditID: Int64) -> [ConsoleEffect] {
        guard mayStart("undo is") else { return [] }
        model.busy = BusyState(title: "Undoing action #\(auditID)", since: model.now, isWriting: true)
        return [.undo(auditID: auditID)]
    }

    /// Whether a write may start now; when not, says why (`what` is disabled on a read-only
    /// file, or another action still runs).
    mutating func mayStart(_ what: String) -> Bool {
        guard !model.isReadOnly else {
            report("Read-only: \(what) disabled (the file was opened read-only).", isError: true)
            return false
        }
        guard model.busy == nil else {
            report("Another action is still running; wait for it to finish.", isError: true)
            return false
        }
        return true
    }

    /// A key while the confirmation dialog is open. A yes/no question takes `y` (anything
    /// else, Enter included, is No; a sweep's `k` measures it again keeping, or no longer
    /// keeping, the stale window); a name is typed and confirmed with Enter.
    mutating func confirmKey(_ key: Key, _ dialog: ConfirmDialog) -> [ConsoleEffect] {
        var dialog = dialog
        switch dialog.pending.confirmation {
        case .yesOrNo:
            switch key {
            case .character("y"), .character("Y"): return runConfirmed(dialog.pending, answer: "y")
            case .character("k"):
                guard case .sweep(let namespace, let keeping) = dialog.pending.target else { return cancelDialog() }
                model.overlay = nil
                let toggled = AdminTarget.sweep(namespace: namespace, keepingStaleWindow: !keeping)
                return startAction(.target(toggled), title: ActionText.title(toggled))
            case .character, .enter, .escape: return cancelDialog()
            default: return []
            }
        case .typeName:
            switch dialog.answer.handle(key) {
            case .submitted: return runConfirmed(dialog.pending, answer: dialog.answer.text)
            case .cancelled: return cancelDialog()
            case .edited, .ignored:
                model.overlay = .confirm(dialog)
                return []
            }
        }
    }

    private mutating func runConfirmed(_ pending: PendingAction, answer: String) -> [ConsoleEffect] {
        model.overlay = nil
        guard pending.accepts(answer) else {
            report("Cancelled: the name did not match; nothing was changed.")
            return []
        }
        let stop = ActionStop()
        model.busy = BusyState(title: ActionText.title(pending.target, keys: pending.impact.entries), since: model.now, isWriting: true, stop: stop)
        return [.run(pending, answer: answer, stop: stop)]
    }

    private mutating func cancelDialog() -> [ConsoleEffect] {
        model.overlay = nil
        report("Cancelled; nothing was changed.")
        return []
    }
}
