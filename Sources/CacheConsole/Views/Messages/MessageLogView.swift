import TerminalUI

/// Every message of this session, newest first and wrapped whole: results and errors that the
/// status line shows for a few seconds, cut at its edge, can be read again here.
package struct MessageLogView: ConsoleView {
    /// The first line shown.
    package internal(set) var scroll = 0

    package static let title = "Message log"

    package static let bindings: [KeyBinding<MessageLogView>] = KeyBinding.listMotion { view, move, context in
        let lines = MessageLogScreen.lines(context.model.messages, now: context.now, width: context.size.columns).count
        let height = ConsoleLayout.body(context.size).size.rows - 2
        view.scroll = max(0, min(view.scroll + move.delta(page: max(1, height - 1)), lines - height))
        return []
    }

    package static let tab: ViewTab? = ViewTab(
        action: .messageLog, label: "Messages", help: "Message log (every result and error of this session)",
        isOnBar: false)

    package static func opened(from context: ViewContext) -> MessageLogView? { MessageLogView() }

    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? { "messages" }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        MessageLogScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// Draws the message log.
enum MessageLogScreen {
    /// The log's lines at terminal width `width`: each message after its age, wrapped.
    static func lines(_ messages: [StatusMessage], now: Int64, width: Int) -> [(text: String, isError: Bool)] {
        messages.reversed().flatMap { message in
            let age = TerminalText.pad(TimeText.ago(message.since, now: now), toWidth: 8, alignment: .trailing) + "  "
            return DetailScreen.wrap(age + message.text, width: max(20, width - 4)).map { ($0, message.isError) }
        }
    }

    static func draw(
        _ view: MessageLogView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        buffer.drawBox(area, style: CellStyle(.border), border: options.border, title: "Messages")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let all = lines(model.messages, now: model.now, width: area.size.columns + 2)
        if all.isEmpty {
            buffer.put("No messages yet.", at: Point(column: inner.minColumn + 1, row: inner.minRow), style: CellStyle(.muted))
        }
        for (offset, line) in all.dropFirst(view.scroll).prefix(inner.size.rows).enumerated() {
            buffer.put(
                line.text, at: Point(column: inner.minColumn + 1, row: inner.minRow + offset),
                style: CellStyle(line.isError ? .bad : .text), maxWidth: inner.size.columns - 1)
        }
    }
}
