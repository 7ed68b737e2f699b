extension ConsoleController {
    /// Keys on the audit log: move, undo the selected action.
    mutating func auditAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.audit else { return [] }
        let entries = view.entries ?? []
        if let delta = ListMotion.delta(action, page: pageRows) {
            view.selection = ListMotion.clamp(view.selection + delta, count: entries.count)
            model.current.content.audit = view
            return []
        }
        guard action == .undo, entries.indices.contains(view.selection) else { return [] }
        let entry = entries[view.selection]
        guard entry.canUndo else {
            report(
                entry.isUndone
                    ? "Action #\(entry.id) was already undone."
                    : "Action #\(entry.id) kept nothing to restore (sweeps and restores cannot be undone).",
                isError: true)
            return []
        }
        return startUndo(entry.id)
    }
}
