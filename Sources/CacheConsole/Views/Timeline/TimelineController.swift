extension ConsoleController {
    /// Keys on the timeline: sweep what it shows as expired.
    mutating func timelineAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard let view = model.current.content.timeline, action == .sweep else { return [] }
        return startAction(
            .target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace ?? "all")")
    }
}
