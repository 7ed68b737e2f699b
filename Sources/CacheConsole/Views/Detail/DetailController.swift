extension ConsoleController {
    /// Keys on the Detail view: scroll the value, switch to a hex dump and back, invalidate
    /// the entry.
    mutating func detailAction(_ action: KeyAction) -> [ConsoleEffect] {
        guard var view = model.current.content.detail else { return [] }
        let lines = DetailScreen.valueLines(view, width: size.columns).count
        let height = DetailScreen.valueHeight(for: size)
        if let delta = ListMotion.delta(action, page: max(1, height - 1)) {
            view.scroll = max(0, min(view.scroll + delta, lines - height))
            model.current.content.detail = view
            return []
        }
        switch action {
        case .toggleHex:
            guard !view.isBinary else {
                report("The value is not text: it shows as a hex dump only.")
                return []
            }
            view.hex.toggle()
            view.scroll = 0
            model.current.content.detail = view
            return [.load([.detail(view: model.current.id, id: view.entryID, hex: view.hex)])]
        case .invalidate:
            guard !view.isGone else { return [] }
            return startAction(
                .target(.invalidate(.key(namespace: view.namespace, key: view.key))), title: "invalidate \(view.key)")
        case .sweep:
            return startAction(.target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace)")
        case .clearNamespace:
            return startAction(.target(.clear(namespace: view.namespace)), title: "clear \(view.namespace)")
        default:
            return []
        }
    }
}
