extension ConsoleController {
    /// A key while a text field or dialog is open.
    mutating func overlayKey(_ key: Key) -> [ConsoleEffect] {
        switch model.overlay {
        case .filter(var field):
            switch field.handle(key) {
            case .submitted:
                model.overlay = nil
                return applyFilter(field.text)
            case .cancelled:
                model.overlay = nil
            case .edited, .ignored:
                model.overlay = .filter(field)
            }
            return []
        case .command(var field, let completions):
            if key == .tab {
                let (text, candidates) = Commands.complete(field.text, context: commandContext)
                field.set(text)
                model.overlay = .command(field, completions: candidates)
                return []
            }
            switch field.handle(key) {
            case .submitted:
                model.overlay = nil
                return execute(field.text)
            case .cancelled:
                model.overlay = nil
            case .edited:
                model.overlay = .command(field, completions: [])
            case .ignored:
                model.overlay = .command(field, completions: completions)
            }
            return []
        case .confirm(let dialog):
            return confirmKey(key, dialog)
        case nil:
            return []
        }
    }
}
