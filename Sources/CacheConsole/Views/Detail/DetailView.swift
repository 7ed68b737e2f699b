/// The Detail view of one entry.
public struct DetailView: Sendable {
    /// The entry's row id.
    public let entryID: Int64
    /// Its namespace.
    public let namespace: String
    /// Its key (for the breadcrumb while it loads).
    public let key: String
    /// The entry as last read.
    public internal(set) var snapshot: EntryDetailSnapshot? {
        didSet { if snapshot?.value != oldValue?.value { wrapped = nil } }
    }
    /// Whether the entry no longer exists.
    public internal(set) var isGone = false
    /// Whether the value shows as a hex dump.
    public internal(set) var hex = false
    /// Whether the value is binary: shown as a hex dump without asking.
    var isBinary: Bool { !hex && snapshot?.value.isHexDump == true }
    /// The first value line shown.
    public internal(set) var scroll = 0
    /// The value's lines as wrapped for a terminal width, kept so that frames, keys and live
    /// refreshes do not wrap a 64 KiB value again each time (cleared when the value changes).
    private(set) var wrapped: (width: Int, lines: [String])?

    /// Wraps the value for terminal width `width` now, unless it already is, for the frames
    /// and keys that follow (see ``DetailScreen/valueLines(_:width:)``).
    mutating func wrapValue(width: Int) {
        guard wrapped?.width != width else { return }
        wrapped = (width, DetailScreen.valueLines(self, width: width))
    }
}
