import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// One level of a Redis keyspace as a prefix tree, ncdu-like: each prefix and key with its
/// keys, memory and a bar, the largest first. Enter opens a prefix (a view of its own on the
/// stack, so ←/Backspace go back up) or a key.
package struct KeyspaceView: ConsoleView {
    /// The level's prefix (empty: the top level).
    package let prefix: Data
    /// The level's part of the breadcrumbs (its last segment).
    let name: String
    /// The level as last read.
    package internal(set) var snapshot: KeyspaceSnapshot?
    /// The selected row.
    package internal(set) var selection = 0

    /// A view of the level below `prefix`, named `name` in the breadcrumbs.
    init(prefix: Data, name: String = "") {
        self.prefix = prefix
        self.name = name
    }

    /// The children shown.
    var children: [KeyspaceNode] { snapshot?.level.children ?? [] }

    // MARK: ConsoleView

    package static let title = "Keyspace (Redis, read-only)"

    package static let bindings: [KeyBinding<KeyspaceView>] =
        [
            KeyBinding(.drillIn, hint: "open", help: "Open the prefix or key") { view, context in
                guard view.children.indices.contains(view.selection) else { return [] }
                let child = view.children[view.selection]
                switch child.kind {
                case .prefix: context.show(KeyspaceView(prefix: child.path, name: child.nameText))
                case .key: context.show(RedisKeyView(key: child.path, keyText: RedisKeyspace.text(of: child.path)))
                }
                return []
            },
            KeyBinding(.previousView, help: "Up one level") { _, context in
                context.close()
                return []
            },
            KeyBinding(.rescan, hint: "rescan", help: "Scan the keyspace again") { view, context in
                context.report("Scanning the keyspace again.")
                context.load([KeyspaceRead(KeyspaceRequest(prefix: view.prefix, rescan: true))])
                return []
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.selection = ListMove.clamp(
                view.selection.addingClamped(move.delta(page: context.pageRows)), count: view.children.count)
            return []
        }

    package func breadcrumb(in context: ViewContext) -> String? { name.isEmpty ? nil : name }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [KeyspaceRead] {
        [KeyspaceRead(KeyspaceRequest(prefix: prefix))]
    }

    package mutating func apply(_ snapshot: KeyspaceSnapshot, for read: KeyspaceRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        var snapshot = snapshot
        let selected = children.indices.contains(selection) ? children[selection].path : nil
        if !snapshot.level.scan.isComplete, let shown = self.snapshot?.level.children {
            snapshot.level.children = Self.keepingOrder(of: shown, snapshot.level.children)
        }
        self.snapshot = snapshot
        // The selection follows its row (rows only reorder when the scan completes).
        selection = ListMove.clamp(
            selected.flatMap { path in children.firstIndex { $0.path == path } } ?? selection, count: children.count)
        // The scan runs on its own; each refresh shows how far it got.
        return []
    }

    /// `children` in the order of the rows `shown`, the new ones after them (largest first):
    /// while the scan runs, rows keep their places as their sizes grow.
    static func keepingOrder(of shown: [KeyspaceNode], _ children: [KeyspaceNode]) -> [KeyspaceNode] {
        let place = Dictionary(shown.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        let known = children.filter { place[$0.path] != nil }.sorted { place[$0.path, default: 0] < place[$1.path, default: 0] }
        return known + children.filter { place[$0.path] == nil }
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        KeyspaceScreen.draw(self, now: context.now, in: area, into: &buffer, options: options)
    }
}

/// A level of a Redis keyspace, with the server.
package struct KeyspaceRead: ConsoleRead {
    let request: KeyspaceRequest

    init(_ request: KeyspaceRequest) {
        self.request = request
    }

    package func run(on source: any ConsoleDataSource) throws -> KeyspaceSnapshot { try source.keyspace(request) }
}
