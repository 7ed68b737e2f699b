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

    package static let bindings: [KeyBinding<TimelineView>] = [
        KeyBinding(.sweep, hint: "sweep", help: "Sweep what it shows as expired", destructive: true) { view, context in
            context.startAction(.target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace ?? "all")")
            return []
        }
    ]

    package static let tab: ViewTab? = ViewTab(
        action: .showTimeline, label: "Timeline", help: "Expiry timeline (of the namespace in view)")

    package static func opened(from context: ViewContext) -> TimelineView? {
        TimelineView(namespace: context.model.current.view.subjectNamespace)
    }
    package var isAuxiliary: Bool { true }
    package var subjectNamespace: String? { namespace }

    package func breadcrumb(in context: ViewContext) -> String? {
        "timeline" + (namespace.map { " of \($0)" } ?? "")
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [TimelineRead] {
        [TimelineRead(namespace: namespace)]
    }

    package mutating func apply(_ snapshot: TimelineSnapshot, for read: TimelineRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        self.snapshot = snapshot
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        TimelineScreen.draw(self, in: area, into: &buffer, options: options)
    }
}

/// The expiry timeline of a namespace (`nil`: of the store).
package struct TimelineRead: ConsoleRead {
    let namespace: String?

    package func run(on source: any ConsoleDataSource) throws -> TimelineSnapshot {
        try source.timeline(namespace: namespace)
    }
}
