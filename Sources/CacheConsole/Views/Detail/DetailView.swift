import TerminalUI
import CacheCore
import Foundation

/// The Detail view of one entry.
package struct DetailView: ConsoleView {
    /// The entry's row id.
    package let entryID: EntryReference
    /// Its namespace.
    package let namespace: String
    /// Its key (for the breadcrumb while it loads).
    package let key: String
    /// The entry as last read.
    package internal(set) var snapshot: EntryDetailSnapshot? {
        didSet { if snapshot?.value != oldValue?.value { wrapped = nil } }
    }
    /// Whether the entry no longer exists.
    package internal(set) var isGone = false
    /// Whether the value shows as a hex dump.
    package internal(set) var hex = false
    /// Whether the value is binary: shown as a hex dump without asking.
    var isBinary: Bool { !hex && snapshot?.value.isHexDump == true }
    /// The first value line shown.
    package internal(set) var scroll = 0
    /// The search in the value (`/`), if one is in force.
    package internal(set) var search: ValueSearch?
    /// The value's lines as wrapped for a terminal width, kept so that frames, keys and live
    /// refreshes do not wrap a 64 KiB value again each time (cleared when the value changes).
    private(set) var wrapped: (width: Int, lines: [String], continuations: [Int?])?

    /// A view of entry `entryID`.
    init(entryID: EntryReference, namespace: String, key: String) {
        self.entryID = entryID
        self.namespace = namespace
        self.key = key
    }

    /// Wraps the value for terminal width `width` now, unless it already is, for the frames
    /// and keys that follow (see ``DetailScreen/valueLines(_:width:)``).
    mutating func wrapValue(width: Int) {
        guard wrapped?.width != width else { return }
        let layout = DetailScreen.valueLayout(self, width: width)
        wrapped = (width, layout.lines, layout.continuations)
        if let text = search?.text { search = runSearch(text, width: width) }
    }

    /// Searches the value for `text` (empty: no search) and scrolls to the first match at or
    /// after the top line shown.
    mutating func searchValue(_ text: String, in context: ViewContext) {
        search = text.isEmpty ? nil : runSearch(text, width: context.size.columns)
        scrollToMatch(in: context)
    }

    private func runSearch(_ text: String, width: Int) -> ValueSearch {
        var search = ValueSearch(text)
        let layout = DetailScreen.valueLayout(self, width: width)
        search.run(on: layout.lines, continuations: layout.continuations, from: scroll)
        return search
    }

    /// Scrolls so the current match shows, a third of the way down when it was out of view.
    private mutating func scrollToMatch(in context: ViewContext) {
        guard let line = search?.currentMatch?.line else { return }
        let height = DetailScreen.valueHeight(for: context.size)
        guard line < scroll || line >= scroll + height else { return }
        let lines = DetailScreen.valueLines(self, width: context.size.columns).count
        scroll = max(0, min(line - height / 3, lines - height))
    }

    /// `n`/`N`: the next or previous match, or why there is none.
    private mutating func stepMatch(forward: Bool, in context: inout ViewContext) {
        guard let current = search else {
            context.report("Search the value first (\(context.label(.filter))).")
            return
        }
        search?.step(forward: forward)
        if current.matches.isEmpty { context.report("No match for \"\(current.text)\".") }
        scrollToMatch(in: context)
    }

    /// Hands the key or the value to the clipboard or the pager.
    private func handOff(value: Bool, to destination: ValueHandoff.Destination, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard !isGone, snapshot != nil else {
            context.report("This entry no longer exists.", isError: true)
            return []
        }
        guard value else {
            return [.handOff(ValueHandoff(destination, subject: "the key \(key)", bytes: Data(key.utf8)))]
        }
        context.load([ValueRead(namespace: namespace, key: key, destination: destination, hex: hex)])
        return []
    }

    // MARK: ConsoleView

    package static let title = "Detail"

    package static let bindings: [KeyBinding<DetailView>] =
        [
            KeyBinding(.toggleHex, hint: "hex", help: "Hex dump / text") { view, context in
                guard !view.isBinary else {
                    context.report("The value is not text: it shows as a hex dump only.")
                    return []
                }
                view.hex.toggle()
                view.scroll = 0
                context.load(view.loads(in: context, refreshing: false))
                return []
            },
            KeyBinding(.filter, hint: "search", help: "Search the value (as you type; n/N next/previous)") {
                view, context in
                context.editFilter(view.search?.text ?? "")
                return []
            },
            KeyBinding(.nextMatch, help: "Next match of the search") { view, context in
                view.stepMatch(forward: true, in: &context)
                return []
            },
            KeyBinding(.previousMatch, help: "Previous match of the search") { view, context in
                view.stepMatch(forward: false, in: &context)
                return []
            },
            KeyBinding(.back, help: "Clear the search, then go back") { view, context in
                view.search = nil
                return []
            },
            KeyBinding(.invalidate, hint: "invalidate", help: "Invalidate the entry", destructive: true) { view, context in
                if !view.isGone {
                    context.startAction(
                        .target(.invalidate(.key(namespace: view.namespace, key: view.key))), title: "invalidate \(view.key)")
                }
                return []
            },
            KeyBinding(.copyKey, hint: "copy key", help: "Copy the key (OSC 52, else a file)") { view, context in
                view.handOff(value: false, to: .clipboard, in: &context)
            },
            KeyBinding(.copyValue, help: "Copy the value (OSC 52, else a file)") { view, context in
                view.handOff(value: true, to: .clipboard, in: &context)
            },
            KeyBinding(.openPager, hint: "pager", help: "Open the value in $PAGER (less)") { view, context in
                view.handOff(value: true, to: .pager, in: &context)
            },
            KeyBinding(.sweep, help: "Sweep expired entries of the namespace", destructive: true) { view, context in
                context.startAction(.target(.sweep(namespace: view.namespace)), title: "sweep \(view.namespace)")
                return []
            },
            KeyBinding(.clearNamespace, help: "Clear the namespace (asks for its name)", destructive: true) {
                view, context in
                context.startAction(.target(.clear(namespace: view.namespace)), title: "clear \(view.namespace)")
                return []
            },
        ]
        + KeyBinding.listMotion { view, move, context in
            let lines = DetailScreen.valueLines(view, width: context.size.columns).count
            let height = DetailScreen.valueHeight(for: context.size)
            view.scroll = max(0, min(view.scroll + move.delta(page: max(1, height - 1)), lines - height))
            return []
        }

    package var subjectNamespace: String? { namespace }

    /// Esc clears the search before it leaves the view.
    package func claims(_ action: KeyAction) -> Bool {
        guard action == .back else { return Self.bindings.contains { $0.shown.action == action } }
        return search != nil
    }

    package func breadcrumb(in context: ViewContext) -> String? { key }

    package func hints(in context: ViewContext) -> [KeyHint] {
        // A binary value only shows as a hex dump: no key switches it.
        Self.bindings.compactMap { binding in
            let shown = binding.shown
            guard shown.hint != nil else { return nil }
            guard shown.action == .toggleHex else { return shown }
            return isBinary ? nil : shown.hinted(hex ? "text" : "hex")
        }
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [DetailRead] {
        [DetailRead(id: entryID, hex: hex)]
    }

    package mutating func apply(_ snapshot: EntryDetailSnapshot?, for read: DetailRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard read.hex == hex else { return [] }
        self.snapshot = snapshot ?? self.snapshot
        isGone = snapshot == nil
        wrapValue(width: context.size.columns)
        return []
    }

    package mutating func resized(to size: Size) {
        wrapValue(width: size.columns)
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        DetailScreen.draw(self, model: context.model, in: area, into: &buffer, options: options)
    }
}

/// The entry a Detail view shows, as text or as a hex dump; `nil` when it is gone.
package struct DetailRead: ConsoleRead {
    /// The entry.
    let id: EntryReference
    /// Whether the value is read as a hex dump.
    let hex: Bool

    package func run(on source: any ConsoleDataSource) throws -> EntryDetailSnapshot? {
        try source.entry(id: id, hex: hex)
    }
}
