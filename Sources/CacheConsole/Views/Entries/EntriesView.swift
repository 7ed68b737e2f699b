import TerminalUI
import CacheCore

/// The Entries view of one namespace: order, filter, the paged window, marks and the values
/// that changed lately.
package struct EntriesView: ConsoleView {
    /// The namespace listed.
    package let namespace: String
    /// The column the rows are sorted by, and whether reversed.
    package internal(set) var sort: EntrySort = EntrySort(.key)
    /// The filter text in force (empty: none). A new filter forgets the old one's count.
    package internal(set) var filter = "" {
        didSet {
            if filter != oldValue {
                matchCount = nil
                note = nil
            }
        }
    }
    /// What the list was opened from, shown beside the filter's count until the filter
    /// changes (a Stats bucket's own counts, which are operations, not entries).
    package internal(set) var note: String?
    /// The rows held.
    package internal(set) var window = EntriesWindow(anchor: .top)
    /// Bumped whenever the order, filter or anchor changes, so older pages are ignored.
    var generation = 0
    /// Marked entries: id → key.
    package internal(set) var marks: [EntryReference: String] = [:]
    /// Whether every entry the filter matches is marked.
    package internal(set) var marksAllMatching = false
    /// Where the last mark was set (display position), for a range mark.
    var markAnchor: Int?
    /// Row id → when its values last changed (ms) and which, to highlight them for a moment.
    var changedAt: [EntryReference: (at: Int64, fields: ChangedFields)] = [:]
    /// Row id → when its values last changed (ms), highlighted or not.
    var lastChange: [EntryReference: Int64] = [:]
    /// Whether the next key picks the sort column (the sort menu is open).
    var sortMenuOpen = false
    /// Rows that moves went past the rows counted so far, away from the anchor, while their
    /// pages were still being read: made up as the pages arrive, so fast key repeat loses no
    /// moves.
    var pendingMove = 0
    /// How many entries the filter matches, exactly (counted with the first page).
    package internal(set) var matchCount: Int?
    /// Whether the order is frozen: a refresh reads the rows on screen again by identity and
    /// updates their figures where they are, and no row moves.
    package internal(set) var isFrozen = false
    /// Whether the rows come in the server's scan order (Redis): there is no order to change
    /// and no end to jump to before the scan got there.
    package internal(set) var isScanOrder = false

    /// Why a scan-ordered list does not sort or jump to its end.
    static let scanOrderNotice =
        "Redis lists entries in SCAN order: sorting or jumping to the end would read every key."

    /// A view of `namespace` sorted by `sort` (by key), listing what `filter` matches (all).
    init(namespace: String, filter: String = "", sort: EntrySort = EntrySort(.key), note: String? = nil) {
        self.namespace = namespace
        self.filter = filter
        self.sort = sort
        self.note = note
    }

    /// The filter of the entries that expire in the hour after `now` (ms), as the timeline's
    /// first hour counts them.
    static func comingHour(now: Int64) -> String {
        EntryFilter([
            .expiresAt(.greaterOrEqual, milliseconds: now.addingClamped(1)),
            .expiresAt(.less, milliseconds: now.addingClamped(3_600_000)),
        ]).description
    }

    /// The filter syntax, shown above the `/` field.
    static let filterSyntax =
        "text in key · prefix:P · tag:T · regex:R · ttl<5m · age>1d · size>1KB · hits=0 · expired · never"

    /// What a page request for page `page` asks for.
    /// A gap (the rows before a relocated entry) is read backwards from its end.
    func request(page: Int, limit: Int = EntriesWindow.pageSize) -> EntriesRequest {
        var order = sort
        if window.anchor == .bottom { order.descending.toggle() }
        let held = window.pages[page]
        return EntriesRequest(
            namespace: namespace, sort: order, filter: filter, start: held.isGap ? held.next : held.start,
            limit: limit, backward: held.isGap)
    }
}

extension EntriesView {
    package static let title = "Entries"

    package static let bindings: [KeyBinding<EntriesView>] =
        [
            KeyBinding(.drillIn, hint: "open", help: "Open the selected entry") { view, context in
                if let row = view.window.selectedRow {
                    context.show(DetailView(entryID: row.id, namespace: view.namespace, key: row.key))
                }
                return []
            },
            KeyBinding(.filter, hint: "filter", help: "Filter (as you type; Esc clears it)") { view, context in
                context.editFilter(view.filter)
                return []
            },
            KeyBinding(.nextHour, help: "Filter to the entries that expire in the coming hour") { view, context in
                view.sort = EntrySort(.expires)
                view.restart(anchor: .top)
                _ = view.applyFilter(comingHour(now: context.now), context: &context)
                return view.pageLoads(in: context)
            },
            KeyBinding(.nextMatch, help: "Next row whose key holds the filter's text") { view, context in
                view.jumpToMatch(forward: true, context: &context)
            },
            KeyBinding(.previousMatch, help: "Previous row whose key holds the filter's text") { view, context in
                view.jumpToMatch(forward: false, context: &context)
            },
            KeyBinding(.sortNext, hint: "sort", help: "Sort by the next column") { view, context in
                view.unlessScanOrder(&context) { view in view.sortBy(EntryColumn.shown(for: view.sort).column.nextSortable) }
            },
            KeyBinding(.reverseSort, help: "Reverse the sort") { view, context in
                view.unlessScanOrder(&context) { view in
                    let (column, descending) = EntryColumn.shown(for: view.sort)
                    var reversed = column.ascendingSort ?? EntrySort(.key)
                    if !descending { reversed.descending.toggle() }
                    view.sort = reversed
                    view.restart(anchor: .top)
                }
            },
            KeyBinding(.sortMenu, help: "Sort by a column you pick") { view, context in
                guard !view.isScanOrder else {
                    context.report(scanOrderNotice)
                    return []
                }
                context.report(
                    "Sort by: "
                        + EntryColumn.allCases.compactMap { column in
                            column.sortKey.map { "\($0) \(column.title)" }
                        }.joined(separator: " · ") + " (keys shown once more reverse)")
                view.sortMenuOpen = true
                return []
            },
            KeyBinding(.toggleMark, hint: "mark", help: "Mark / unmark the selected entry") { view, context in
                guard let row = view.window.selectedRow else { return [] }
                view.marksAllMatching = false
                if view.marks.removeValue(forKey: row.id) == nil { view.marks[row.id] = row.key }
                view.markAnchor = view.window.selection
                view.window.move(by: 1, height: EntriesScreen.listHeight(for: context.size))
                return view.pageLoads(in: context)
            },
            KeyBinding(.markRange, help: "Mark from the last mark to here") { view, context in
                view.markRange(context: &context)
            },
            KeyBinding(.markAllMatching, help: "Mark every matching entry / unmark all") { view, context in
                if !view.marksAllMatching, let count = view.matchCount, count > FilterSelector.maximumKeys,
                    let filter = try? EntryFilter(parsing: view.filter),
                    FilterSelector.direct(namespace: view.namespace, filter: filter) == nil
                {
                    context.report(
                        "Not marked: the filter matches \(Formatting.entries(count)), and an action on a filter's keys "
                            + "takes at most \(Formatting.count(FilterSelector.maximumKeys)); narrow it, or use "
                            + "prefix: or tag: (no limit).", isError: true)
                    return []
                }
                view.marksAllMatching.toggle()
                view.marks = [:]
                return []
            },
            KeyBinding(
                .invalidate, hint: "invalidate", help: "Invalidate selected / marked / matching", destructive: true
            ) { view, context in
                view.invalidate(context: &context)
                return []
            },
            KeyBinding(.clearNamespace, help: "Clear the namespace (asks for its name)", destructive: true) {
                view, context in
                context.startAction(.target(.clear(namespace: view.namespace)), title: "clear \(view.namespace)")
                return []
            },
            KeyBinding(.sweep, help: "Sweep expired entries of the namespace", destructive: true) { view, context in
                context.startAction(.target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace)")
                return []
            },
            KeyBinding(.back, help: "Unmark, then clear the filter, then go back") { view, context in
                view.unmarkOrClearFilter(context: &context)
            },
        ]
        + KeyBinding.listMotion { view, move, context in view.move(move, context: &context) }

    package var subjectNamespace: String? { namespace }

    package func breadcrumb(in context: ViewContext) -> String? {
        filter.isEmpty ? namespace : "\(namespace) /\(filter)"
    }

    /// Esc unmarks and clears the filter before it leaves the view.
    package func claims(_ action: KeyAction) -> Bool {
        guard action == .back else { return Self.bindings.contains { $0.shown.action == action } }
        return !marks.isEmpty || marksAllMatching || !filter.isEmpty
    }

    package mutating func intercept(_ key: Key, in context: inout ViewContext) -> [ConsoleEffect]? {
        guard sortMenuOpen else { return nil }
        return pickSort(key, in: context) ?? []
    }

    /// Moves the selection; the first and last rows of a list read in pages start the pages
    /// over from that end.
    private mutating func move(_ move: ListMove, context: inout ViewContext) -> [ConsoleEffect] {
        let height = EntriesScreen.listHeight(for: context.size)
        switch move {
        case .up, .down, .pageUp, .pageDown:
            moveSelection(to: window.selection + pendingMove + move.delta(page: max(1, height - 1)), height: height)
        case .top:
            pendingMove = 0
            if window.anchor == .top && !window.hasGap {
                window.select(0, height: height)
            } else {
                restart(anchor: .top)
            }
        case .bottom where isScanOrder && !window.isComplete:
            context.report(Self.scanOrderNotice)
            return []
        case .bottom:
            pendingMove = 0
            if window.anchor == .top && window.isComplete {
                window.select(window.knownCount - 1, height: height)
            } else if window.anchor == .bottom && !window.hasGap {
                window.select(-1, height: height)
            } else {
                restart(anchor: .bottom)
            }
        }
        return pageLoads(in: context)
    }

    /// Selects display position `target`, as far as the rows counted allow; what lies beyond
    /// them, away from the anchor, waits in ``pendingMove`` for the pages still to come.
    private mutating func moveSelection(to target: Int, height: Int) {
        window.select(target, height: height)
        let overshoot = target - window.selection
        let awayFromAnchor = window.anchor == .top ? overshoot > 0 : overshoot < 0
        pendingMove = awayFromAnchor && !window.isComplete ? overshoot : 0
    }

    /// Runs `body`, a change of order, unless the rows come in scan order.
    private mutating func unlessScanOrder(_ context: inout ViewContext, _ body: (inout EntriesView) -> Void)
        -> [ConsoleEffect]
    {
        guard !isScanOrder else {
            context.report(Self.scanOrderNotice)
            return []
        }
        body(&self)
        return pageLoads(in: context)
    }

    /// Marks every row from the last mark to the selection.
    private mutating func markRange(context: inout ViewContext) -> [ConsoleEffect] {
        guard let anchor = markAnchor else {
            context.report(
                "Mark a row first (\(context.label(.toggleMark))), then \(context.label(.markRange)) marks up to here.")
            return []
        }
        marksAllMatching = false
        for position in min(anchor, window.selection)...max(anchor, window.selection) {
            if let row = window.row(at: position) { marks[row.id] = row.key }
        }
        markAnchor = window.selection
        return pageLoads(in: context)
    }

    /// Esc: unmarks, else clears the filter.
    private mutating func unmarkOrClearFilter(context: inout ViewContext) -> [ConsoleEffect] {
        if !marks.isEmpty || marksAllMatching {
            marks = [:]
            marksAllMatching = false
            context.report("Marks cleared.")
            return []
        }
        filter = ""
        restart(anchor: .top)
        context.report("Filter cleared.")
        return pageLoads(in: context)
    }

    /// Sorts by `column`, in its natural direction (largest first for sizes and counts, like
    /// the CLI); the same column again reverses it. The cursor goes to the top row.
    mutating func sortBy(_ column: EntryColumn) {
        guard let natural = column.defaultSort else { return }
        let (current, _) = EntryColumn.shown(for: sort)
        if current == column {
            sort.descending.toggle()
        } else {
            sort = natural
        }
        restart(anchor: .top)
    }

    /// A key typed while the sort menu is open picks a column; `nil` when it is not a
    /// column key (the menu closes either way).
    private mutating func pickSort(_ key: Key, in context: ViewContext) -> [ConsoleEffect]? {
        sortMenuOpen = false
        guard case .character(let character) = key,
            let column = EntryColumn.allCases.first(where: { $0.sortKey == character })
        else { return nil }
        sortBy(column)
        return pageLoads(in: context)
    }

    /// Selects the next (or previous) held row whose key contains the filter's text words.
    private mutating func jumpToMatch(forward: Bool, context: inout ViewContext) -> [ConsoleEffect] {
        let height = EntriesScreen.listHeight(for: context.size)
        let words = filter.split(separator: " ").filter { !$0.contains(":") && !$0.contains(where: "<>=".contains) }
        guard !words.isEmpty, let bounds = window.bounds else {
            context.report("No text to look for: filter with words from the keys (\(context.label(.filter))).")
            return []
        }
        let step = forward ? 1 : -1
        var position = window.selection + step
        while bounds.contains(position) {
            if let row = window.row(at: position), words.allSatisfy({ row.key.contains($0) }) {
                window.select(position, height: height)
                return pageLoads(in: context)
            }
            position += step
        }
        context.report(forward ? "No further match among the rows read." : "No earlier match among the rows read.")
        return pageLoads(in: context)
    }

    /// Applies filter text (typed in the `/` field, incrementally); `false` with the reason
    /// in the status line when it does not parse, leaving the filter in force as it was.
    mutating func applyFilter(_ text: String, context: inout ViewContext) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        do {
            _ = try EntryFilter(parsing: trimmed)
        } catch {
            context.report("Filter: \(error.description)", isError: true)
            return false
        }
        guard trimmed != filter else { return true }
        filter = trimmed
        marks = [:]
        marksAllMatching = false
        restart(anchor: .top)
        return true
    }

    /// Starts the pages over from `anchor` (new order, filter or end).
    mutating func restart(anchor: EntriesWindow.Anchor) {
        generation += 1
        pendingMove = 0
        window = EntriesWindow(anchor: anchor)
        markAnchor = nil
        changedAt = [:]
        lastChange = [:]
    }

    /// The reads of pages the view still needs, as an effect.
    mutating func pageLoads(in context: ViewContext) -> [ConsoleEffect] {
        let requests = loadRequests(in: context, refreshing: false)
        return requests.isEmpty ? [] : [.load(requests)]
    }

    private func invalidate(context: inout ViewContext) {
        if marksAllMatching {
            let what = filter.isEmpty ? "every entry of \(namespace)" : "entries matching '\(filter)'"
            context.startAction(.matching(namespace: namespace, filter: filter), title: what)
            return
        }
        let keys = marks.isEmpty ? window.selectedRow.map { [$0.key] } ?? [] : marks.values.sorted()
        switch keys.count {
        case 0: break
        case 1:
            context.startAction(
                .target(.invalidate(.key(namespace: namespace, key: keys[0]))), title: "invalidate \(keys[0])")
        default:
            context.startAction(
                .target(.invalidate(.keys(namespace: namespace, keys: keys))),
                title: "invalidate \(keys.count) entries")
        }
    }

    package mutating func click(at point: Point, in area: Rect, context: inout ViewContext) -> [ConsoleEffect] {
        let inner = Rect(
            column: area.minColumn, row: area.minRow + 1, columns: area.size.columns, rows: area.size.rows - 1
        )
        .insetBy(1)
        guard inner.contains(point) else { return [] }
        if point.row == inner.minRow {
            guard !isScanOrder,
                let column = EntriesScreen.column(at: point.column - inner.minColumn, width: inner.size.columns)
            else { return [] }
            sortBy(column)
            return pageLoads(in: context)
        }
        let position = window.top + point.row - inner.minRow - 1
        guard window.row(at: position) != nil else { return [] }
        if position == window.selection { return handle(.drillIn, in: &context) }
        window.select(position, height: EntriesScreen.listHeight(for: context.size))
        return pageLoads(in: context)
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [EntriesRead] {
        let height = EntriesScreen.listHeight(for: context.size)
        if refreshing && isFrozen {
            let shown = (window.top..<window.top + height).compactMap { window.row(at: $0) }
            return shown.isEmpty
                ? [] : [EntriesRead(generation: generation, page: 0, replacing: false, request: request(page: 0), rows: shown)]
        }
        if refreshing && window.hasLoaded {
            let (page, limit) = window.refreshRange(height: height)
            return [
                EntriesRead(
                    generation: generation, page: page, replacing: true, request: request(page: page, limit: limit),
                    follow: window.selectedRow?.id)
            ]
        }
        let pages = window.pagesToLoad(height: height)
        window.loading.formUnion(pages)
        return pages.map { page in
            EntriesRead(generation: generation, page: page, replacing: false, request: request(page: page), follow: nil)
        }
    }

    package func wants(_ read: EntriesRead) -> Bool {
        read.generation == generation
    }

    package mutating func apply(_ result: EntriesReadResult, for read: EntriesRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard read.generation == generation else { return [] }
        let entriesRequest = read.request
        let height = EntriesScreen.listHeight(for: context.size)
        let page = result.page
        if entriesRequest.backward {
            window.fillGap(with: page, at: read.page, from: entriesRequest.start, height: height)
            return context.model.current.id == context.viewID ? pageLoads(in: context) : []
        }
        let changed =
            if read.rows != nil {
                window.update(page.rows)
            } else if let relocated = result.relocated {
                window.relocate(
                    to: relocated.location.position, page: relocated.page, start: relocated.location.start,
                    height: height)
            } else {
                window.apply(page, at: read.page, from: entriesRequest.start, replacing: read.replacing, height: height)
            }
        if let position = result.followedPosition, let follow = read.follow,
            let offset = page.rows.firstIndex(where: { $0.id == follow })
        {
            window.recount(before: read.page, rows: position - offset, height: height)
        }
        if pendingMove != 0 { moveSelection(to: window.selection + pendingMove, height: height) }
        for (id, fields) in changed {
            if ConsoleController.highlights(lastChange: lastChange[id], now: context.now) {
                changedAt[id] = (context.now, fields)
            }
            lastChange[id] = context.now
        }
        if entriesRequest.start == nil, read.rows == nil { matchCount = page.matching }
        if read.rows == nil { isScanOrder = page.isScanOrder }
        return context.model.current.id == context.viewID ? pageLoads(in: context) : []
    }

    package mutating func loadFailed(_ read: EntriesRead) {
        window.loading.remove(read.page)
    }

    package mutating func freeze(_ frozen: Bool, in context: ViewContext) {
        isFrozen = frozen
    }

    package mutating func resized(to size: Size) {
        window.clampTop(height: EntriesScreen.listHeight(for: size))
    }

    package mutating func prune(highlightsBefore cutoff: Int64, changesBefore quietCutoff: Int64) {
        changedAt = changedAt.filter { $0.value.at > cutoff }
        lastChange = lastChange.filter { $0.value > quietCutoff }
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        EntriesScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// A page of an Entries view: page `page` of its chain, in generation `generation` of its
/// order and filter; `replacing` reloads the page and drops the pages after it (a refresh).
/// With `rows`, a frozen view's refresh: those rows read again one by one by namespace and
/// key, wherever the order has them now (rows since removed are left out). A refresh that no
/// longer finds the selected entry (`follow`) among its rows looks it up in the same read and
/// brings the page that starts with it; one that finds it past the first page looks up its
/// position too, so the rows above are counted exactly.
package struct EntriesRead: ConsoleRead {
    let generation: Int
    let page: Int
    let replacing: Bool
    let request: EntriesRequest
    var rows: [EntryInfo]? = nil
    var follow: EntryReference? = nil

    package func run(on source: any ConsoleDataSource) throws -> EntriesReadResult {
        if let rows {
            let found = try rows.compactMap { row in
                // By key: a value written again is the same entry in a new row.
                let reference: EntryReference =
                    if case .row = row.id { .key(namespace: request.namespace, key: row.key) } else { row.id }
                return try source.entry(id: reference, hex: false)?.entry
            }
            return EntriesReadResult(page: EntriesPage(rows: found, next: nil, examinedRows: found.count))
        }
        let page = try source.entries(request)
        guard let follow else { return EntriesReadResult(page: page) }
        let isHeld = page.rows.contains { $0.id == follow }
        guard !isHeld || self.page > 0 else { return EntriesReadResult(page: page) }
        var whole = request
        whole.start = nil
        guard let location = try source.locate(follow, in: whole) else { return EntriesReadResult(page: page) }
        if isHeld { return EntriesReadResult(page: page, followedPosition: location.position) }
        whole.start = location.start
        whole.limit = max(EntriesWindow.pageSize, request.limit)
        let found = try source.entries(whole)
        guard found.rows.first?.id == follow else { return EntriesReadResult(page: page) }
        return EntriesReadResult(page: page, relocated: EntriesReadResult.Relocation(location: location, page: found))
    }
}

/// What an ``EntriesRead`` brought: the page asked for, and where the followed entry went
/// when the page no longer holds it.
package struct EntriesReadResult: Sendable, Hashable {
    /// The followed entry's place and the page that starts with it.
    package struct Relocation: Sendable, Hashable {
        let location: EntriesLocation
        let page: EntriesPage
    }

    /// The page asked for.
    package var page: EntriesPage
    /// Where the followed entry went; `nil` when the page holds it, or it is gone.
    package var relocated: Relocation?
    /// The followed entry's position in the order, when the page holds it past the first page.
    package var followedPosition: Int?

    init(page: EntriesPage, relocated: Relocation? = nil, followedPosition: Int? = nil) {
        self.page = page
        self.relocated = relocated
        self.followedPosition = followedPosition
    }
}

/// The columns of the Entries table, in order, and the sort each stands for. Age and last
/// access show times since, so their ascending order is the time column's descending one.
enum EntryColumn: CaseIterable {
    case key, size, age, expires, hits, lastAccess, tags

    /// The heading.
    var title: String {
        switch self {
        case .key: "key"
        case .size: "size"
        case .age: "age"
        case .expires: "expires"
        case .hits: "hits"
        case .lastAccess: "accessed"
        case .tags: "tags"
        }
    }

    /// The key that sorts by this column in the sort menu (`nil` for tags).
    var sortKey: Character? {
        switch self {
        case .key: "k"
        case .size: "s"
        case .age: "a"
        case .expires: "e"
        case .hits: "h"
        case .lastAccess: "l"
        case .tags: nil
        }
    }

    /// The order a pick of this column starts with: what the CLI lists first (largest sizes
    /// and counts, newest and most recently read first, soonest expiry, keys A–Z).
    var defaultSort: EntrySort? {
        switch self {
        case .key: EntrySort(.key)
        case .size: EntrySort(.size, descending: true)
        case .age: EntrySort(.created, descending: true)
        case .expires: EntrySort(.expires)
        case .hits: EntrySort(.hits, descending: true)
        case .lastAccess: EntrySort(.lastAccess, descending: true)
        case .tags: nil
        }
    }

    /// The sort this column's ascending order is; `nil` for tags.
    var ascendingSort: EntrySort? {
        switch self {
        case .key: EntrySort(.key)
        case .size: EntrySort(.size)
        case .age: EntrySort(.created, descending: true)
        case .expires: EntrySort(.expires)
        case .hits: EntrySort(.hits)
        case .lastAccess: EntrySort(.lastAccess, descending: true)
        case .tags: nil
        }
    }

    /// The column a sort is shown on, and whether it shows as descending.
    static func shown(for sort: EntrySort) -> (column: EntryColumn, descending: Bool) {
        for column in allCases {
            guard let ascending = column.ascendingSort, ascending.field == sort.field else { continue }
            return (column, ascending.descending != sort.descending)
        }
        return (.key, sort.descending)
    }

    /// The next sortable column after this one.
    var nextSortable: EntryColumn {
        let sortable = Self.allCases.filter { $0.ascendingSort != nil }
        let index = sortable.firstIndex(of: self) ?? 0
        return sortable[(index + 1) % sortable.count]
    }
}
