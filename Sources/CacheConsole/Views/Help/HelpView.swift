import CacheCoreRedis
import TerminalUI
/// The key and command help.
package struct HelpView: ConsoleView {
    /// The first line shown.
    package internal(set) var scroll = 0

    package static let title = "Help"

    package static let bindings: [KeyBinding] = KeyBinding.listMotion

    package var tab: KeyAction? { .help }

    package func breadcrumb(in context: ViewContext) -> String? { "help" }

    package func hints(in context: ViewContext) -> [KeyBinding] { [] }

    package mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        guard let delta = ListMotion.delta(action, page: context.pageRows) else { return [] }
        let lines = HelpScreen.height(
            context.settings.keyMap, isReadOnly: context.model.isReadOnly, isKeyspace: context.model.isKeyspace,
            hasKeyspace: context.model.hasKeyspace, columns: context.size.columns)
        scroll = max(0, min(scroll + delta, lines - ConsoleLayout.body(context.size).size.rows))
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        HelpScreen.draw(
            self, keyMap: context.settings.keyMap, isReadOnly: context.model.isReadOnly,
            isKeyspace: context.model.isKeyspace, hasKeyspace: context.model.hasKeyspace, in: area, into: &buffer)
    }
}
