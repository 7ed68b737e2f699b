import TerminalUI
import CacheCore

/// The Overview's own state: which namespace is selected and which panel has focus.
package struct OverviewView: ConsoleView {
    package typealias Read = OverviewRead

    /// The panels Tab moves between.
    package enum Pane: Sendable, Hashable {
        /// The namespace table.
        case namespaces
        /// The attached processes.
        case processes
    }

    /// The selected namespace's row.
    package internal(set) var selection = 0
    /// The selected namespace's name, so the selection follows it when rows move.
    var selectedName: String?
    /// The first namespace row shown.
    var scroll = 0
    /// The panel with focus.
    package internal(set) var pane = Pane.namespaces
    /// The selected process row.
    var processSelection = 0
    /// Namespace name → since when its changed figures are highlighted (ms).
    var changedAt: [String: Int64] = [:]
    /// Namespace name → when its figures last changed (ms), highlighted or not.
    var lastChange: [String: Int64] = [:]
    /// The column the namespace table is sorted by.
    package internal(set) var sort = NamespaceColumn.name
    /// Whether the order is reversed.
    package internal(set) var descending = false
    /// Whether the next key picks the sort column (the sort menu is open).
    var sortMenuOpen = false
    /// The names in the order frozen (``KeyAction/freezeOrder``); namespaces that appear
    /// later go last. `nil`: the rows follow the sort.
    var frozenOrder: [String]?

    /// `namespaces` in the table's order (ties by name); those whose figure is unknown (a hit
    /// rate without reads, "–") come last in either direction, by name.
    /// While the order is frozen, rows keep their places and new namespaces go last.
    func ordered(_ namespaces: [NamespaceFacts]) -> [NamespaceFacts] {
        if let frozenOrder {
            let place = Dictionary(frozenOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return namespaces.sorted { first, second in
                let (a, b) = (place[first.name] ?? .max, place[second.name] ?? .max)
                return a == b ? first.name < second.name : a < b
            }
        }
        let known = namespaces.filter { sort.key($0) != nil }.sorted { first, second in
            let (a, b) = (sort.key(first), sort.key(second))
            return a == b ? first.name < second.name : a.map { a in b.map { a < $0 } ?? true } ?? false
        }
        let unknown = namespaces.filter { sort.key($0) == nil }.sorted { $0.name < $1.name }
        return (descending ? known.reversed() : known) + unknown
    }

    // MARK: ConsoleView

    package static let title = "Overview"

    package static let tab: ViewTab? = ViewTab(action: .showOverview, label: "Overview", help: "Overview")

    package static let bindings: [KeyBinding<OverviewView>] =
        [
            KeyBinding(.drillIn, hint: "open", help: "Open the selected namespace") { view, context in
                view.onNamespaces(&context) { view, context in
                    if let selected = view.selected(in: context) { context.show(EntriesView(namespace: selected)) }
                }
            },
            KeyBinding(.nextHour, help: "Entries of the selected namespace that expire in the coming hour") {
                view, context in
                view.onNamespaces(&context) { view, context in
                    if let selected = view.selected(in: context) {
                        context.show(
                            EntriesView(
                                namespace: selected, filter: EntriesView.comingHour(now: context.now),
                                sort: EntrySort(.expires)))
                    }
                }
            },
            KeyBinding(.sortNext, hint: "sort", help: "Sort by the next column") { view, context in
                view.onNamespaces(&context) { view, context in
                    let shown = OverviewScreen.sortColumns(for: context.size)
                    view.sort = shown.firstIndex(of: view.sort).map { shown[(shown.index(after: $0)) % shown.count] } ?? .name
                    view.descending = view.sort != .name
                    view.toTop(in: context)
                }
            },
            KeyBinding(.reverseSort, help: "Reverse the sort") { view, context in
                view.onNamespaces(&context) { view, context in
                    view.descending.toggle()
                    view.toTop(in: context)
                }
            },
            KeyBinding(.sortMenu, help: "Sort by a column you pick") { view, context in
                view.onNamespaces(&context) { view, context in
                    view.sortMenuOpen = true
                    context.report(
                        "Sort by: "
                            + OverviewScreen.sortColumns(for: context.size).map {
                                "\($0.menuKey) \($0.title)"
                            }.joined(separator: " · ")
                            + " (the same column again reverses)")
                }
            },
            KeyBinding(.nextPane, hint: "panel", help: "Switch between namespaces and processes") { view, _ in
                view.switchPane()
            },
            KeyBinding(.previousPane, help: "Switch between namespaces and processes") { view, _ in view.switchPane() },
            KeyBinding(.sweep, hint: "sweep", help: "Sweep expired entries of the store", destructive: true) { _, context in
                context.startAction(.target(.sweep(namespace: nil)), title: "sweep all")
                return []
            },
            KeyBinding(.clearNamespace, hint: "clear", help: "Clear the selected namespace", destructive: true) {
                view, context in
                view.onNamespaces(&context) { view, context in
                    if let selected = view.selected(in: context) {
                        context.startAction(.target(.clear(namespace: selected)), title: "clear \(selected)")
                    }
                }
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            if view.pane == .processes {
                view.processSelection = ListMove.clamp(
                    view.processSelection + move.delta(page: context.pageRows),
                    count: context.model.overview?.processes.count ?? 0)
            } else {
                view.select(
                    view.selection + move.delta(page: context.pageRows),
                    among: view.ordered(context.model.overview?.namespaces ?? []),
                    height: OverviewScreen.listHeight(for: context.size))
            }
            return []
        }

    package func breadcrumb(in context: ViewContext) -> String? { nil }

    package func hints(in context: ViewContext) -> [KeyHint] {
        let shown = Self.bindings.map(\.shown)
        guard pane == .processes else { return shown.filter { $0.hint != nil } }
        return shown.filter { $0.action == .nextPane || $0.action == .sweep }.map {
            $0.action == .nextPane ? $0.hinted("namespaces") : $0
        }
    }

    /// Runs `body`, an action on the selected namespace, unless the processes have the focus.
    private mutating func onNamespaces(
        _ context: inout ViewContext, _ body: (inout OverviewView, inout ViewContext) -> Void
    ) -> [ConsoleEffect] {
        if pane == .processes {
            context.report(
                "The process list has the focus: \(context.label(.nextPane)) goes back to the namespaces.")
        } else {
            body(&self, &context)
        }
        return []
    }

    /// The selected namespace's name.
    private func selected(in context: ViewContext) -> String? {
        let namespaces = ordered(context.model.overview?.namespaces ?? [])
        return namespaces.indices.contains(selection) ? namespaces[selection].name : nil
    }

    private mutating func switchPane() -> [ConsoleEffect] {
        pane = pane == .namespaces ? .processes : .namespaces
        return []
    }

    /// The cursor to the top row of the (new) order; a frozen order freezes the new one.
    private mutating func toTop(in context: ViewContext) {
        if frozenOrder != nil {
            frozenOrder = nil
            freeze(true, in: context)
        }
        scroll = 0
        select(
            0, among: ordered(context.model.overview?.namespaces ?? []),
            height: OverviewScreen.listHeight(for: context.size))
    }

    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? {
        guard sortMenuOpen else { return nil }
        sortMenuOpen = false
        if case .character(let character) = key,
            let column = OverviewScreen.sortColumns(for: context.size).first(where: { $0.menuKey == character })
        {
            sortBy(column, in: context)
        }
        return []
    }

    /// Sorts by `column` (names A–Z, figures largest first; the same column again reverses),
    /// the cursor on the top row.
    private mutating func sortBy(_ column: NamespaceColumn, in context: ViewContext) {
        if sort == column {
            descending.toggle()
        } else {
            sort = column
            descending = column != .name
        }
        toTop(in: context)
    }

    /// Selects row `index` (clamped) of `namespaces`, scrolled into view.
    private mutating func select(_ index: Int, among namespaces: [NamespaceFacts], height: Int) {
        selection = ListMove.clamp(index, count: namespaces.count)
        selectedName = namespaces.indices.contains(selection) ? namespaces[selection].name : nil
        scroll = OverviewScreen.scroll(scroll, selection: selection, height: height)
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        guard let snapshot = context.model.overview else { return [] }
        switch OverviewScreen.hit(point, in: area, view: self) {
        case .namespaceRow(let offset):
            let namespaces = ordered(snapshot.namespaces)
            let index = scroll + offset
            guard namespaces.indices.contains(index) else { return [] }
            pane = .namespaces
            if index == selection {
                context.show(EntriesView(namespace: namespaces[index].name))
            } else {
                select(index, among: namespaces, height: OverviewScreen.listHeight(for: context.size))
            }
        case .namespaceHeader(let column):
            if let column { sortBy(column, in: context) }
        case .processRow(let index):
            pane = .processes
            processSelection = ListMove.clamp(index, count: snapshot.processes.count)
        case .processPanel:
            pane = .processes
        case .none:
            break
        }
        return []
    }

    package mutating func apply(_ snapshot: OverviewSnapshot, for read: OverviewRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        let old = Dictionary(
            (context.model.overview?.namespaces ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for namespace in snapshot.namespaces {
            guard let before = old[namespace.name] else { continue }
            let shown = { (facts: NamespaceFacts) in
                [facts.entries, Int(facts.bytes), facts.expired, Int(((facts.hitRate ?? -1) * 1000).rounded())]
            }
            guard shown(before) != shown(namespace) else { continue }
            if ConsoleController.highlights(lastChange: lastChange[namespace.name], now: context.now) {
                changedAt[namespace.name] = context.now
            }
            lastChange[namespace.name] = context.now
        }
        if let frozen = frozenOrder {
            let known = Set(frozen)
            frozenOrder = frozen + snapshot.namespaces.map(\.name).filter { !known.contains($0) }.sorted()
        }
        let names = ordered(snapshot.namespaces).map(\.name)
        if let name = selectedName, let index = names.firstIndex(of: name) {
            selection = index
        } else {
            selection = min(selection, max(0, names.count - 1))
        }
        selectedName = names.indices.contains(selection) ? names[selection] : nil
        processSelection = min(processSelection, max(0, snapshot.processes.count - 1))
        scroll = OverviewScreen.scroll(
            scroll, selection: selection, height: OverviewScreen.listHeight(for: context.size))
        return []
    }

    package mutating func freeze(_ frozen: Bool, in context: ViewContext) {
        frozenOrder = nil
        if frozen { frozenOrder = ordered(context.model.overview?.namespaces ?? []).map(\.name) }
    }

    package mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64) {
        changedAt = changedAt.filter { $0.value > cutoff }
        lastChange = lastChange.filter { $0.value > quietCutoff }
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        OverviewScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// The sortable columns of the namespace table.
package enum NamespaceColumn: Int, CaseIterable, Sendable {
    /// By name.
    case name
    /// By stored entries.
    case entries
    /// By bytes.
    case bytes
    /// By recent hit rate (namespaces without reads, "–", last either way).
    case hitRate
    /// By misses in the last minute.
    case misses
    /// By evictions in the last minute.
    case evictions
    /// By expired entries removed in the last minute.
    case expirations
    /// By loader failures in the last minute (namespaces without loader calls, "–", last).
    case loadFailures
    /// By operations per second over the last minute.
    case operations
    /// By expired entries waiting for a sweep.
    case expired

    /// What the column compares (names compare by their position in name order); `nil` when
    /// the figure is unknown.
    fileprivate func key(_ namespace: NamespaceFacts) -> Double? {
        let recent = namespace.lastMinute
        switch self {
        case .name: return 0
        case .entries: return Double(namespace.entries)
        case .bytes: return Double(namespace.bytes)
        case .hitRate: return namespace.hitRate
        case .misses: return recent.map { Double($0.misses) }
        case .evictions: return recent.map { Double($0.evictions) }
        case .expirations: return recent.map { Double($0.expirations) }
        case .loadFailures: return recent?.loadFailures.map(Double.init)
        case .operations: return recent?.operationsPerSecond
        case .expired: return namespace.hasExpiry ? Double(namespace.expired) : nil
        }
    }

    /// The heading.
    var title: String {
        switch self {
        case .name: "namespace"
        case .entries: "entries"
        case .bytes: "bytes"
        case .hitRate: "hit rate"
        case .misses: "misses/m"
        case .evictions: "evicted/m"
        case .expirations: "expired/m"
        case .loadFailures: "loadfail/m"
        case .operations: "ops/s"
        case .expired: "expired"
        }
    }

    /// The key that picks the column in the sort menu.
    var menuKey: Character {
        switch self {
        case .name: "n"
        case .entries: "e"
        case .bytes: "b"
        case .hitRate: "h"
        case .misses: "m"
        case .evictions: "v"
        case .expirations: "p"
        case .loadFailures: "f"
        case .operations: "o"
        case .expired: "x"
        }
    }
}
