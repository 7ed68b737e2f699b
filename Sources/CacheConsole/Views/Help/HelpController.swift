extension ConsoleController {
    /// Keys on the help: scroll.
    mutating func helpAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.help, let delta = ListMotion.delta(action, page: pageRows) else {
            return []
        }
        let lines = HelpScreen.lines(settings.keyMap, isReadOnly: model.isReadOnly).count
        view.scroll = max(0, min(view.scroll + delta, lines - ConsoleLayout.body(size).size.rows + 2))
        model.current.content.help = view
        return []
    }
}
