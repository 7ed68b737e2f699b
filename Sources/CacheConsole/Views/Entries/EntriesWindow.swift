import TerminalUI
/// The part of a namespace's entries the console holds, paged with keyset cursors from one
/// end of the order: from the top (`g`), or from the bottom (`G`, the reversed order read
/// backwards). Pages far from the selection are dropped and read again from their start
/// when needed, so memory stays bounded however far one scrolls through a million entries.
///
/// Positions come in two kinds: *chain* positions count rows from the anchored end (0, 1, …);
/// *display* positions count screen order: 0, 1, … from the top for the top anchor, and
/// …, -2, -1 up from the bottom for the bottom anchor.
///
/// When the selected entry moves far in the order (a refresh no longer finds it), the chain
/// is anchored again on it (``relocate(to:page:start:height:)``): a *gap* of the rows before
/// it, counted but not read, then the entry's page. The gap is read upwards from its end
/// as the viewport reaches it.
package struct EntriesWindow: Sendable {
    /// Which end of the order the pages start from.
    package enum Anchor: Sendable, Hashable {
        /// The first rows of the order.
        case top
        /// The last rows of the order (read in the reversed order).
        case bottom
    }

    /// One page of the chain.
    struct Page: Sendable {
        /// Where it starts (`nil`: at the anchor).
        var start: PageToken?
        /// How many rows it held when last read; `nil` until then.
        var count: Int?
        /// Its rows, when held.
        var rows: [EntryInfo]?
        /// Where the following page starts; `nil` when this is the last.
        var next: PageToken?
        /// Whether this is the gap before a relocated entry: rows counted, never read from
        /// `start`, read backwards from `next` instead.
        var isGap = false
    }

    /// Rows per page read.
    static let pageSize = 200
    /// Pages whose rows are held at most.
    static let keptPages = 12

    /// Which end the chain starts from.
    package let anchor: Anchor
    var pages: [Page] = [Page()]
    /// Pages being read.
    var loading: Set<Int> = []
    /// The selected display position.
    package internal(set) var selection: Int
    /// The display position of the first visible row.
    package internal(set) var top: Int

    /// A window reading from `anchor`, nothing read yet.
    init(anchor: Anchor) {
        self.anchor = anchor
        selection = anchor == .top ? 0 : -1
        top = anchor == .top ? 0 : -1
    }

    /// The display position of chain position `position`.
    func display(_ position: Int) -> Int { anchor == .top ? position : -1 - position }
    /// The chain position of display position `position`.
    func chain(_ position: Int) -> Int { anchor == .top ? position : -1 - position }

    /// Rows counted in the pages read so far, from the anchor up to the first unread page.
    package var knownCount: Int {
        var total = 0
        for page in pages {
            guard let count = page.count else { break }
            total += count
        }
        return total
    }

    /// Whether every row has been counted (the last page was read).
    package var isComplete: Bool {
        guard let last = pages.last else { return true }
        return last.count != nil && last.next == nil
    }

    /// Whether the first page has been read.
    package var hasLoaded: Bool { pages.first?.count != nil }

    /// The display positions of the rows counted so far; `nil` when none.
    var bounds: ClosedRange<Int>? {
        let known = knownCount
        guard known > 0 else { return nil }
        return anchor == .top ? 0...(known - 1) : -known...(-1)
    }

    /// The page holding chain position `position` and the offset in it.
    func locate(_ position: Int) -> (page: Int, offset: Int)? {
        guard position >= 0 else { return nil }
        var start = 0
        for (index, page) in pages.enumerated() {
            guard let count = page.count else { return nil }
            if position < start + count { return (index, position - start) }
            start += count
        }
        return nil
    }

    /// The row at display position `position`, if it is held.
    package func row(at position: Int) -> EntryInfo? {
        guard let (page, offset) = locate(chain(position)), let rows = pages[page].rows, offset < rows.count else {
            return nil
        }
        return rows[offset]
    }

    /// The selected row, if it is held.
    package var selectedRow: EntryInfo? { row(at: selection) }

    /// Every row held, page by page.
    var heldRows: [EntryInfo] { pages.flatMap { $0.rows ?? [] } }

    /// The chain position where page `index` starts.
    func firstPosition(ofPage index: Int) -> Int {
        pages.prefix(index).reduce(0) { $0 + ($1.count ?? 0) }
    }

    /// Moves the selection by `delta` rows within the rows counted so far and scrolls so it
    /// stays in a viewport of `height` rows.
    mutating func move(by delta: Int, height: Int) {
        select(selection + delta, height: height)
    }

    /// Selects display position `position` (clamped to the rows counted) and scrolls to it.
    mutating func select(_ position: Int, height: Int) {
        guard let bounds else { return }
        selection = min(max(position, bounds.lowerBound), bounds.upperBound)
        if selection < top { top = selection }
        if selection >= top + height { top = selection - height + 1 }
        clampTop(height: height)
    }

    /// Keeps the viewport on counted rows and full when it can be.
    mutating func clampTop(height: Int) {
        guard let bounds else { return }
        let highest = max(bounds.lowerBound, bounds.upperBound - max(1, height) + 1)
        top = max(bounds.lowerBound, min(top, highest))
        if selection < top { top = selection }
        if selection >= top + height { top = max(bounds.lowerBound, selection - height + 1) }
    }

    /// Pages to read now for a viewport of `height` rows: held pages the viewport needs
    /// again, and the next page when the selection nears the end of what is counted.
    func pagesToLoad(height: Int) -> [Int] {
        var wanted: [Int] = []
        let first = chain(anchor == .top ? top : top + height - 1)
        let last = chain(anchor == .top ? top + height - 1 : top)
        for position in stride(from: max(0, first - Self.pageSize / 2), through: last + Self.pageSize / 2, by: 50) {
            if let (page, _) = locate(position), pages[page].rows == nil, !wanted.contains(page) {
                wanted.append(page)
            }
        }
        if let frontier = pages.firstIndex(where: { $0.count == nil }),
            frontier == 0 || knownCount - chain(selection) <= max(2 * height, 50)
        {
            wanted.append(frontier)
        }
        return wanted.filter { !loading.contains($0) }
    }

    /// Stores a page read from `index`'s start; `replacing` drops the pages after it (their
    /// starts may have moved). Returns the rows whose values changed since last held, and
    /// which values.
    ///
    /// A page read from a start that page `index` no longer has (a refresh re-chained the
    /// pages meanwhile) is dropped.
    mutating func apply(
        _ page: EntriesPage, at index: Int, from start: PageToken?, replacing: Bool, height: Int
    ) -> [EntryReference: ChangedFields] {
        guard pages.indices.contains(index), pages[index].start == start else { return [:] }
        loading.remove(index)
        let selectedID = selectedRow?.id
        let screenOffset = selection - top
        let previous = Dictionary(
            (pages[index].rows ?? []).map { ($0.id, $0) } + (replacing ? heldRows(after: index) : []),
            uniquingKeysWith: { first, _ in first })
        pages[index].count = page.rows.count
        pages[index].rows = page.rows
        pages[index].next = page.next
        if replacing || index == pages.count - 1 {
            pages.removeSubrange((index + 1)...)
            loading = loading.filter { $0 <= index }
            if let next = page.next { pages.append(Page(start: next)) }
        }
        if let selectedID, let offset = page.rows.firstIndex(where: { $0.id == selectedID }) {
            selection = display(firstPosition(ofPage: index) + offset)
            top = selection - screenOffset
        }
        clampSelection(height: height)
        dropDistantPages()
        return Self.changes(from: previous, to: page.rows)
    }

    /// The rows of `rows` whose values differ from `previous`, and which values.
    private static func changes(from previous: [EntryReference: EntryInfo], to rows: [EntryInfo])
        -> [EntryReference: ChangedFields]
    {
        var changes: [EntryReference: ChangedFields] = [:]
        for row in rows {
            guard let old = previous[row.id] else { continue }
            let fields = ChangedFields(from: old, to: row)
            if !fields.isEmpty { changes[row.id] = fields }
        }
        return changes
    }

    /// Puts `rows` (of one namespace, read again by key) in the places of the held rows with
    /// their keys, moving none; returns which values changed, as
    /// ``apply(_:at:from:replacing:height:)``.
    mutating func update(_ rows: [EntryInfo]) -> [EntryReference: ChangedFields] {
        let fresh = Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [EntryReference: ChangedFields] = [:]
        for page in pages.indices {
            guard let held = pages[page].rows else { continue }
            pages[page].rows = held.map { old in
                guard let new = fresh[old.key] else { return old }
                let fields = ChangedFields(from: old, to: new)
                if !fields.isEmpty { changes[new.id] = fields }
                return new
            }
        }
        return changes
    }

    /// Whether the chain has a gap (the rows before a relocated entry, not read yet).
    var hasGap: Bool { pages.contains(where: \.isGap) }

    /// Anchors the chain again on the selected entry, which a refresh found at chain position
    /// `position`, first row of `page` (read from `start`): the selection and its screen row
    /// stay with the entry. Returns the rows whose values changed, as ``apply(_:at:from:replacing:height:)``.
    mutating func relocate(to position: Int, page: EntriesPage, start: PageToken, height: Int)
        -> [EntryReference: ChangedFields]
    {
        let previous = Dictionary(heldRows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let screenOffset = selection - top
        let located = Page(start: position == 0 ? nil : start, count: page.rows.count, rows: page.rows, next: page.next)
        pages = position == 0 ? [located] : [Page(start: nil, count: position, next: start, isGap: true), located]
        if let next = page.next { pages.append(Page(start: next)) }
        loading = []
        selection = display(position)
        top = selection - screenOffset
        clampSelection(height: height)
        return Self.changes(from: previous, to: page.rows)
    }

    /// Counts the rows before page `index` anew, `rows` of them exactly (a refresh looked its
    /// selected entry up: a writer moved rows above the screen). When that differs from the
    /// pages' counts, those pages become one gap of `rows` rows (off the screen: the refreshed
    /// page holds its first row), so every position after it is exact again.
    mutating func recount(before index: Int, rows: Int, height: Int) {
        guard index > 0, pages.indices.contains(index) else { return }
        let shift = rows - firstPosition(ofPage: index)
        guard shift != 0 else { return }
        let gap = Page(start: nil, count: rows, next: pages[index].start, isGap: true)
        pages.replaceSubrange(0..<index, with: rows == 0 ? [] : [gap])
        // Reads in flight for the pages that moved find other starts there, and are dropped.
        loading = []
        let moved = display(chain(selection) + shift)
        top += moved - selection
        selection = moved
        clampSelection(height: height)
    }

    /// Stores rows read backwards from the end of the gap at `index` (`end`, its `next` when
    /// the read was asked): they become a page after the gap, which shrinks by as many rows;
    /// when nothing lies before them (the page's `next` is `nil`) the gap is gone, and the
    /// positions after it move by the difference between its count and what it held.
    mutating func fillGap(with page: EntriesPage, at index: Int, from end: PageToken?, height: Int) {
        guard pages.indices.contains(index), pages[index].isGap, pages[index].next == end else { return }
        loading.remove(index)
        let counted = pages[index].count ?? 0
        let remaining = page.next == nil ? 0 : max(0, counted - page.rows.count)
        let filled = Page(start: page.next, count: page.rows.count, rows: page.rows, next: end)
        if page.next == nil {
            pages[index] = filled
        } else {
            pages[index].count = remaining
            pages[index].next = page.next
            if !page.rows.isEmpty {
                pages.insert(filled, at: index + 1)
                // Reads in flight for the pages after it now find other starts there, and are dropped.
                loading = loading.filter { $0 < index }
            }
        }
        let shift = remaining + page.rows.count - counted
        if shift != 0 {
            let movedSelection = display(chain(selection) + shift)
            top += movedSelection - selection
            selection = movedSelection
        }
        clampSelection(height: height)
    }

    /// The page to read again for a refresh and how many rows: from the start of the page
    /// holding the visible row nearest the anchor, enough to cover the viewport and a little
    /// more.
    func refreshRange(height: Int) -> (page: Int, limit: Int) {
        let nearest = chain(anchor == .top ? top : top + height - 1)
        guard var (page, _) = locate(max(0, nearest)) else { return (0, Self.pageSize) }
        if pages[page].isGap, pages.indices.contains(page + 1) { page += 1 }
        let farthest = chain(anchor == .top ? top + height - 1 : top)
        let covered = farthest - firstPosition(ofPage: page) + 1
        return (page, min(10_000, max(Self.pageSize, covered + Self.pageSize / 2)))
    }

    private func heldRows(after index: Int) -> [(EntryReference, EntryInfo)] {
        pages.suffix(from: index + 1).flatMap { ($0.rows ?? []).map { ($0.id, $0) } }
    }

    private mutating func clampSelection(height: Int) {
        guard let bounds else {
            selection = anchor == .top ? 0 : -1
            top = selection
            return
        }
        selection = min(max(selection, bounds.lowerBound), bounds.upperBound)
        clampTop(height: height)
    }

    private mutating func dropDistantPages() {
        let held = pages.indices.filter { pages[$0].rows != nil }
        guard held.count > Self.keptPages, let (selected, _) = locate(chain(selection)) else { return }
        for index in held.sorted(by: { abs($0 - selected) > abs($1 - selected) }).prefix(held.count - Self.keptPages) {
            pages[index].rows = nil
        }
    }
}

/// Which shown values of an entry changed.
struct ChangedFields: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let size = ChangedFields(rawValue: 1 << 0)
    static let hits = ChangedFields(rawValue: 1 << 1)
    static let expiry = ChangedFields(rawValue: 1 << 2)
    static let lastAccess = ChangedFields(rawValue: 1 << 3)

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The values that differ between `old` and `new`.
    init(from old: EntryInfo, to new: EntryInfo) {
        var fields: ChangedFields = []
        if old.size != new.size { fields.insert(.size) }
        if old.hits != new.hits { fields.insert(.hits) }
        if old.expiresAt != new.expiresAt { fields.insert(.expiry) }
        if old.lastAccessAt != new.lastAccessAt { fields.insert(.lastAccess) }
        self = fields
    }
}
