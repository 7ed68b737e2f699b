import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// One level of a Redis keyspace as a prefix tree, ncdu-like: each prefix and key with its
/// keys, memory and a bar, the largest first. Enter opens a prefix (a view of its own on the
/// stack, so ←/Backspace go back up) or a key; `s`/`S` sort the rows loaded by memory, name,
/// TTL or type, and `/` narrows them to a pattern. While the scan runs or the order is frozen,
/// rows keep their places (new ones come after them) and the cursor stays on its row. `d`
/// deletes the marked keys, or the key or prefix under the cursor, after a preview of the
/// exact keys (undone from the Audit view); a RedisStore's keys are refused in one line.
package struct KeyspaceView: ConsoleView {
    /// The level's prefix (empty: the top level).
    package let prefix: Data
    /// The level's part of the breadcrumbs (its last segment).
    let name: String
    /// The level as last read.
    package internal(set) var snapshot: KeyspaceSnapshot?
    /// The selected row (of ``children``).
    package internal(set) var selection = 0
    /// How the rows are sorted.
    package internal(set) var order = KeyspaceOrder.memory
    /// Whether the order is reversed from its natural direction.
    package internal(set) var isReversed = false
    /// What `/` typed: the rows shown match it (empty: all).
    package internal(set) var search = ""
    /// The keys marked for deletion (their names).
    package internal(set) var marks: Set<Data> = []
    /// Whether the order is frozen (``KeyAction/freezeOrder``): rows keep their places, new
    /// ones after them, even when a scan completes.
    package internal(set) var isFrozen = false

    /// A view of the level below `prefix`, named `name` in the breadcrumbs.
    init(prefix: Data, name: String = "") {
        self.prefix = prefix
        self.name = name
    }

    /// The children shown: those loaded that match the search, in the order chosen.
    var children: [KeyspaceNode] {
        let all = snapshot?.level.children ?? []
        guard !search.isEmpty else { return all }
        let search = KeyspaceSearch(text: search)
        return all.filter { search.matches($0.nameText) }
    }

    /// The filter syntax, shown above the `/` field.
    static let filterSyntax = "text in the name, or a glob: user:*:cart · user:?? · [ab]*"

    // MARK: ConsoleView

    package static let title = "Keyspace (Redis)"

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
            KeyBinding(.showBreakdown, hint: "breakdown", help: "Types, TTLs and memory of the prefix (or the level)") {
                view, context in
                let child = view.children.indices.contains(view.selection) ? view.children[view.selection] : nil
                context.show(BreakdownView(prefix: child?.kind == .prefix ? child?.path ?? view.prefix : view.prefix))
                return []
            },
            KeyBinding(.sortNext, hint: "sort", help: "Sort by memory, name, TTL, type (the rows loaded)") {
                view, context in
                view.sort(by: view.order.next, reversed: false, context: &context)
                return []
            },
            KeyBinding(.reverseSort, help: "Reverse the sort order") { view, context in
                view.sort(by: view.order, reversed: !view.isReversed, context: &context)
                return []
            },
            KeyBinding(.filter, hint: "search", help: "Show the names that match (as you type; Esc clears it)") {
                view, context in
                context.editFilter(view.search)
                return []
            },
            KeyBinding(.toggleMark, hint: "mark", help: "Mark / unmark the selected key") { view, context in
                guard view.children.indices.contains(view.selection) else { return [] }
                let child = view.children[view.selection]
                guard child.kind == .key else {
                    context.report("Only keys are marked; d on a prefix deletes every key under it.", isError: true)
                    return []
                }
                if view.marks.remove(child.path) == nil { view.marks.insert(child.path) }
                view.selection = ListMove.clamp(view.selection + 1, count: view.children.count)
                return []
            },
            KeyBinding(
                .invalidate, hint: "delete", help: "Delete the marked keys, or the key or prefix selected",
                destructive: true
            ) { view, context in
                view.delete(context: &context)
                return []
            },
            KeyBinding(.back, help: "Clear the search, then go up") { view, _ in
                view.applySearch("")
                return []
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            view.selection = ListMove.clamp(
                view.selection.addingClamped(move.delta(page: context.pageRows)), count: view.children.count)
            return []
        }

    package func breadcrumb(in context: ViewContext) -> String? {
        let parts = [name, search.isEmpty ? "" : "/" + search].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// Esc clears the search before it goes up.
    package func claims(_ action: KeyAction) -> Bool {
        guard action == .back else { return Self.bindings.contains { $0.shown.action == action } }
        return !search.isEmpty
    }

    /// Deletes the marked keys, else the key or every key under the prefix selected (after
    /// the preview and confirmation every action has).
    private mutating func delete(context: inout ViewContext) {
        let namespace = RedisKeyspaceAdmin.namespace
        if !marks.isEmpty {
            let keys = marks.map(RedisKeyspace.text(of:)).sorted()
            marks = []
            let target: InvalidationSelector =
                keys.count == 1 ? .key(namespace: namespace, key: keys[0]) : .keys(namespace: namespace, keys: keys)
            context.startAction(.target(.deleteKeys(target)), title: "\(keys.count) marked keys")
            return
        }
        guard children.indices.contains(selection) else { return }
        let child = children[selection]
        let text = RedisKeyspace.text(of: child.path)
        switch child.kind {
        case .key: context.startAction(.target(.deleteKeys(.key(namespace: namespace, key: text))), title: text)
        case .prefix:
            context.startAction(.target(.deleteKeys(.prefix(namespace: namespace, prefix: text))), title: text + "*")
        }
    }

    /// Sorts the rows loaded by `order`, the cursor staying on its row.
    mutating func sort(by order: KeyspaceOrder, reversed: Bool, context: inout ViewContext) {
        self.order = order
        isReversed = reversed
        keepingSelection { view in
            if let children = view.snapshot?.level.children {
                view.snapshot?.level.children = order.sorted(children, reversed: reversed)
            }
        }
        let direction = (order.isDescendingByDefault != reversed) ? "descending" : "ascending"
        let scanning = snapshot?.level.scan.isComplete == false ? "; rows found later come after them until the scan ends" : ""
        context.report("Sorted by \(order.rawValue), \(direction), the rows loaded\(scanning).")
    }

    /// Shows the rows whose names match `text`, the cursor staying on its row when it still shows.
    mutating func applySearch(_ text: String) {
        keepingSelection { $0.search = text }
    }

    /// Runs `change`, then puts the cursor back on the row it was on (by its key or prefix).
    private mutating func keepingSelection(_ change: (inout KeyspaceView) -> Void) {
        let selected = children.indices.contains(selection) ? children[selection].path : nil
        change(&self)
        selection = ListMove.clamp(
            selected.flatMap { path in children.firstIndex { $0.path == path } } ?? selection, count: children.count)
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [KeyspaceRead] {
        [KeyspaceRead(KeyspaceRequest(prefix: prefix))]
    }

    package mutating func apply(_ snapshot: KeyspaceSnapshot, for read: KeyspaceRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        var snapshot = snapshot
        if !snapshot.level.scan.isComplete || isFrozen, let shown = self.snapshot?.level.children {
            snapshot.level.children = Self.keepingOrder(of: shown, snapshot.level.children)
        } else if order != .memory || isReversed {
            snapshot.level.children = order.sorted(snapshot.level.children, reversed: isReversed)
        }
        // The selection follows its row (rows only reorder when the scan completes).
        keepingSelection { $0.snapshot = snapshot }
        // The scan runs on its own; each refresh shows how far it got.
        return []
    }

    package mutating func freeze(_ frozen: Bool, in context: ViewContext) {
        isFrozen = frozen
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
