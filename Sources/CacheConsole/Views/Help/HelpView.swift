import CacheCoreRedis
import TerminalUI
/// The key and command help.
package struct HelpView: ConsoleView {
    /// The first line shown.
    package internal(set) var scroll = 0

    package static let title = "Help"

    package static let bindings: [KeyBinding<HelpView>] = KeyBinding.listMotion { view, move, context in
        let lines = HelpScreen.height(
            context.settings.keyMap, isReadOnly: context.model.isReadOnly, isKeyspace: context.model.isKeyspace,
            hasKeyspace: context.model.hasKeyspace, columns: context.size.columns)
        view.scroll = max(
            0, min(view.scroll + move.delta(page: context.pageRows), lines - ConsoleLayout.body(context.size).size.rows))
        return []
    }

    package static let tab: ViewTab? = ViewTab(action: .help, label: "Help", help: "Help (again: close it)")

    /// The help, or `nil` (close it) when it is already on top.
    package static func opened(from context: ViewContext) -> HelpView? {
        context.model.current.isHelp ? nil : HelpView()
    }

    package func breadcrumb(in context: ViewContext) -> String? { "help" }

    package func hints(in context: ViewContext) -> [KeyHint] { [] }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        HelpScreen.draw(
            self, keyMap: context.settings.keyMap, isReadOnly: context.model.isReadOnly,
            isKeyspace: context.model.isKeyspace, hasKeyspace: context.model.hasKeyspace, in: area, into: &buffer)
    }
}
