import TerminalUI
/// The expiry timeline of a namespace or of the store.
package struct TimelineView: ConsoleView {
    /// The namespace, or `nil` for the store.
    package let namespace: String?
    /// The timeline as last read.
    package internal(set) var snapshot: TimelineSnapshot?

    /// The timeline of `namespace` (`nil`: the store).
    init(namespace: String?) {
        self.namespace = namespace
    }

    package static let title = "Timeline"

    package static let bindings: [KeyBinding] = [
        KeyBinding(.sweep, hint: "sweep", help: "Sweep what it shows as expired", destructive: true)
    ]

    package var tab: KeyAction? { .showTimeline }
    package var isAuxiliary: Bool { true }
    package var subjectNamespace: String? { namespace }

    package func breadcrumb(in context: ViewContext) -> String? {
        "timeline" + (namespace.map { " of \($0)" } ?? "")
    }

    package mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        if action == .sweep {
            context.startAction(.target(.sweep(namespace: namespace)), title: "sweep \(namespace ?? "all")")
        }
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest] {
        [.timeline(view: context.viewID, namespace: namespace)]
    }

    package mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        if case .timeline(let snapshot) = data { self.snapshot = snapshot }
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        TimelineScreen.draw(self, in: area, into: &buffer, options: options)
    }
}
