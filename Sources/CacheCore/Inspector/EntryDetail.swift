/// How ``Inspector/entry(id:options:)`` renders a value.
public struct EntryDetailOptions: Sendable, Hashable {
    /// The rendering asked for.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
        /// Pretty JSON when the value is JSON (up to 1 MiB), else a hex dump.
        case automatic
        /// Always a hex dump.
        case hexDump
    }

    /// The rendering asked for.
    public var format: Format
    /// The most bytes rendered: of pretty JSON text, or of the value in a hex dump (16…16 MiB).
    public var maxBytes: Int

    /// Creates options; by default JSON is pretty-printed and at most 64 KiB rendered.
    public init(format: Format = .automatic, maxBytes: Int = 64 * 1024) {
        self.format = format
        self.maxBytes = maxBytes
    }
}

/// A value rendered for reading.
public enum ValueRendering: Sendable, Hashable {
    /// Pretty-printed JSON with sorted keys, strings and numbers exactly as stored; cut at the
    /// byte limit when `isTruncated`.
    case json(String, isTruncated: Bool)
    /// A hex dump of the value's first bytes; `isTruncated` when the value is longer.
    case hexDump([HexDumpLine], isTruncated: Bool)
}

extension ValueRendering: Codable {
    private enum CodingKeys: String, CodingKey {
        case format, text, lines, isTruncated
    }

    private enum Format: String, Codable {
        case json, hexDump
    }

    /// Decodes `{"format": "json", "text": …, "isTruncated": …}` or
    /// `{"format": "hexDump", "lines": […], "isTruncated": …}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let isTruncated = try container.decode(Bool.self, forKey: .isTruncated)
        switch try container.decode(Format.self, forKey: .format) {
        case .json: self = .json(try container.decode(String.self, forKey: .text), isTruncated: isTruncated)
        case .hexDump:
            self = .hexDump(try container.decode([HexDumpLine].self, forKey: .lines), isTruncated: isTruncated)
        }
    }

    /// Encodes the rendering with a `format` of `json` or `hexDump`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .json(let text, let isTruncated):
            try container.encode(Format.json, forKey: .format)
            try container.encode(text, forKey: .text)
            try container.encode(isTruncated, forKey: .isTruncated)
        case .hexDump(let lines, let isTruncated):
            try container.encode(Format.hexDump, forKey: .format)
            try container.encode(lines, forKey: .lines)
            try container.encode(isTruncated, forKey: .isTruncated)
        }
    }
}

/// One entry in full: its metadata and its value rendered.
public struct EntryDetail: Sendable, Hashable, Codable {
    /// The entry's metadata (its ``EntryRow/preview`` holds the first 64 bytes).
    public var entry: EntryRow
    /// The time the entry was judged at (milliseconds since the epoch).
    public var now: Int64
    /// Whether it has expired at ``now`` (`now >= expiresAt`).
    public var isExpired: Bool
    /// The value, rendered.
    public var value: ValueRendering
    /// The app-given sort value (``Cache/set(_:for:expiration:tags:sortValue:)``), if any.
    public var sortValue: Int64? = nil
}
