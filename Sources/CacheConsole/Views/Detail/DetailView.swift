import TerminalUI
import CacheCore

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
    /// The value's lines as wrapped for a terminal width, kept so that frames, keys and live
    /// refreshes do not wrap a 64 KiB value again each time (cleared when the value changes).
    private(set) var wrapped: (width: Int, lines: [String])?

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
        wrapped = (width, DetailScreen.valueLines(self, width: width))
    }

    // MARK: ConsoleView

    package static let title = "Detail"

    package static let bindings: [KeyBinding] =
        [
            KeyBinding(.toggleHex, hint: "hex", help: "Hex dump / text"),
            KeyBinding(.invalidate, hint: "invalidate", help: "Invalidate the entry", destructive: true),
            KeyBinding(.sweep, help: "Sweep expired entries of the namespace", destructive: true),
            KeyBinding(.clearNamespace, help: "Clear the namespace (asks for its name)", destructive: true),
        ] + KeyBinding.listMotion

    package var subjectNamespace: String? { namespace }

    package func breadcrumb(in context: ViewContext) -> String? { key }

    package func hints(in context: ViewContext) -> [KeyBinding] {
        // A binary value only shows as a hex dump: no key switches it.
        Self.bindings.compactMap { binding in
            guard binding.hint != nil else { return nil }
            guard binding.action == .toggleHex else { return binding }
            return isBinary ? nil : binding.hinted(hex ? "text" : "hex")
        }
    }

    package mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        let lines = DetailScreen.valueLines(self, width: context.size.columns).count
        let height = DetailScreen.valueHeight(for: context.size)
        if let delta = ListMotion.delta(action, page: max(1, height - 1)) {
            scroll = max(0, min(scroll + delta, lines - height))
            return []
        }
        switch action {
        case .toggleHex:
            guard !isBinary else {
                context.report("The value is not text: it shows as a hex dump only.")
                return []
            }
            hex.toggle()
            scroll = 0
            return [.load([.detail(view: context.viewID, id: entryID, hex: hex)])]
        case .invalidate:
            guard !isGone else { return [] }
            context.startAction(
                .target(.invalidate(.key(namespace: namespace, key: key))), title: "invalidate \(key)")
        case .sweep:
            context.startAction(.target(.sweep(namespace: namespace)), title: "sweep \(namespace)")
        case .clearNamespace:
            context.startAction(.target(.clear(namespace: namespace)), title: "clear \(namespace)")
        default:
            break
        }
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest] {
        [.detail(view: context.viewID, id: entryID, hex: hex)]
    }

    package mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard case .detail(_, _, let hex) = request, case .detail(let snapshot) = data, hex == self.hex else {
            return []
        }
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
