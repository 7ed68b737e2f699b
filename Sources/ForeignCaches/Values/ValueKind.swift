import CacheCore
import Foundation

/// What a foreign value is. Serialisations that run code when loaded (pickle, Ruby Marshal,
/// PHP `serialize`) are never loaded: a pickle is read as data by ``PickleValue`` (which
/// runs nothing), PHP's text is shown as it is, the rest as bytes.
package enum ValueKind: String, Sendable, Hashable, Codable {
    case json = "JSON"
    case text = "text"
    case pickle = "Python pickle"
    case base64Pickle = "Python pickle (base64)"
    case rubyMarshal = "Ruby Marshal"
    case phpSerialized = "PHP serialize"
    case zlib = "zlib-compressed"
    case gzip = "gzip-compressed"
    case binary = "binary"
    case missing = "missing side file"

    /// The kind of `bytes` by their first bytes: a format's own hint wins when it has one.
    static func sniff(_ bytes: [UInt8], hint: String? = nil) -> ValueKind {
        if hint == "pickle" { return .pickle }
        if hint == "text", String(validating: bytes, as: UTF8.self) != nil { return .text }
        guard let first = bytes.first else { return .text }
        if first == 0x80, bytes.count > 1, (1...5).contains(bytes[1]) { return .pickle }
        if bytes.starts(with: [0x04, 0x08]) { return .rubyMarshal }
        if bytes.starts(with: [0x1F, 0x8B]) { return .gzip }
        if first == 0x78, bytes.count > 1, [0x01, 0x5E, 0x9C, 0xDA].contains(bytes[1]) { return .zlib }
        if isPHPSerialized(bytes) { return .phpSerialized }
        if JSONPrettyPrinter.prettyPrinted(bytes, limit: 1) != nil { return .json }
        if isBase64Pickle(bytes) { return .base64Pickle }
        if let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        {
            return .text
        }
        return .binary
    }

    /// `i:5;`, `s:3:"abc";`, `a:1:{…}`, `O:8:"stdClass":…`, `b:1;`, `d:1.5;`, `N;`.
    private static func isPHPSerialized(_ bytes: [UInt8]) -> Bool {
        if bytes == Array("N;".utf8) { return true }
        guard bytes.count >= 4, bytes[1] == UInt8(ascii: ":") else { return false }
        return Array("isabdOC".utf8).contains(bytes[0]) && (bytes.last == UInt8(ascii: ";") || bytes.last == UInt8(ascii: "}"))
    }

    /// Django's database cache: base64 text whose bytes are a pickle.
    private static func isBase64Pickle(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes.count % 4 == 0, bytes.starts(with: Array("gA".utf8)) else { return false }
        return Data(base64Encoded: Data(bytes.prefix(64 * 1024))) != nil
    }
}

/// Values as the console and CLI show them.
enum ValueRenderer {
    /// The longest text shown, and the most bytes hex-dumped.
    static let textLimit = 64 * 1024
    static let hexLimit = 4 * 1024

    /// JSON pretty-printed, plain text as it is, a pickle (a base64 one decoded first) as
    /// Python would print what it holds, everything else (and a pickle ``PickleValue`` cannot
    /// read) as a hex dump; `hex` forces the dump.
    static func render(_ bytes: [UInt8], kind: ValueKind, hex: Bool, totalBytes: Int64) -> ValueRendering {
        let isCut = Int64(bytes.count) < totalBytes
        if !hex {
            switch kind {
            case .json:
                if let pretty = JSONPrettyPrinter.prettyPrinted(bytes, limit: textLimit) {
                    return .json(pretty.text, isTruncated: pretty.isTruncated || isCut)
                }
            case .text, .phpSerialized:
                if let text = String(validating: bytes.prefix(textLimit), as: UTF8.self) {
                    return .json(text, isTruncated: bytes.count > textLimit || isCut)
                }
            default: break
            }
        }
        var shown = bytes
        if kind == .base64Pickle, !hex, let decoded = Data(base64Encoded: Data(bytes)) { shown = Array(decoded) }
        if !hex, kind == .pickle || kind == .base64Pickle,
            let printed = PickleValue.reading(shown, { PickleText.render($0, limit: textLimit) })
        {
            return .json(printed.text, isTruncated: printed.isTruncated || isCut)
        }
        return .hexDump(HexDumpLine.lines(Array(shown.prefix(hexLimit))), isTruncated: shown.count > hexLimit || isCut)
    }
}
