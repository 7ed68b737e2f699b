/// Pretty-prints JSON with object keys sorted, keeping every string and number exactly as
/// written (no round trip through `Double`, no re-escaping), two spaces per level.
///
/// It accepts one JSON value per RFC 8259 (scalars included) in valid UTF-8, nested at most
/// ``maxDepth`` deep; anything else is not JSON to it, so hostile values fall back to a hex dump.
package enum JSONPrettyPrinter {
    static let maxDepth = 100

    /// The pretty text of `bytes` cut to at most `limit` bytes (at a character boundary), and
    /// whether it was cut; `nil` when `bytes` is not JSON.
    package static func prettyPrinted(_ bytes: [UInt8], limit: Int) -> (text: String, isTruncated: Bool)? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var parser = JSONParser(bytes: bytes)
        guard let root = parser.document() else { return nil }
        var writer = Writer(input: bytes, limit: limit)
        writer.write(root, indent: 0)
        let isTruncated = writer.output.count > limit
        var end = min(writer.output.count, limit)
        while end > 0, end < writer.output.count, writer.output[end] & 0xC0 == 0x80 { end -= 1 }
        return (String(decoding: writer.output[..<end], as: UTF8.self), isTruncated)
    }

    private struct Writer {
        let input: [UInt8]
        let limit: Int
        var output: [UInt8] = []

        mutating func write(_ node: JSONNode, indent: Int) {
            guard output.count <= limit else { return }
            switch node {
            case .scalar(let range):
                output += input[range]
            case .array(let elements):
                writeContainer(open: "[", close: "]", count: elements.count, indent: indent) { writer, index in
                    writer.write(elements[index], indent: indent + 2)
                }
            case .object(let members):
                let sorted = members.enumerated().sorted {
                    ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset)
                }
                writeContainer(open: "{", close: "}", count: sorted.count, indent: indent) { writer, index in
                    let member = sorted[index].element
                    writer.output += writer.input[member.key]
                    writer.output += Array(": ".utf8)
                    writer.write(member.value, indent: indent + 2)
                }
            }
        }

        private mutating func writeContainer(
            open: Unicode.Scalar, close: Unicode.Scalar, count: Int, indent: Int, element: (inout Writer, Int) -> Void
        ) {
            output.append(UInt8(ascii: open))
            if count > 0 {
                for index in 0..<count where output.count <= limit {
                    output.append(UInt8(ascii: "\n"))
                    output += Array(repeating: UInt8(ascii: " "), count: indent + 2)
                    element(&self, index)
                    if index < count - 1 { output.append(UInt8(ascii: ",")) }
                }
                output.append(UInt8(ascii: "\n"))
                output += Array(repeating: UInt8(ascii: " "), count: indent)
            }
            output.append(UInt8(ascii: close))
        }
    }
}

/// A parsed JSON value that points back into the input for its scalars and keys.
enum JSONNode {
    /// A string, number, `true`, `false` or `null`, as written.
    case scalar(Range<Int>)
    case array([JSONNode])
    case object([JSONMember])
}

struct JSONMember {
    /// The key's string literal, quotes included, as written.
    let key: Range<Int>
    /// The key's text, for sorting.
    let sortKey: String
    let value: JSONNode
}

/// A strict RFC 8259 recursive-descent parser over UTF-8 bytes, depth-limited.
struct JSONParser {
    let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value the bytes hold, surrounded by whitespace only.
    mutating func document() -> JSONNode? {
        skipWhitespace()
        guard let value = value(depth: 0) else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private mutating func value(depth: Int) -> JSONNode? {
        guard depth < JSONPrettyPrinter.maxDepth, index < bytes.count else { return nil }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map { _ in .scalar(start..<index) }
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number() ? .scalar(start..<index) : nil
        }
    }

    private mutating func object(depth: Int) -> JSONNode? {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if consume("}") { return .object(members) }
        repeat {
            skipWhitespace()
            let keyStart = index
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let sortKey = string() else { return nil }
            let key = keyStart..<index
            skipWhitespace()
            guard consume(":") else { return nil }
            skipWhitespace()
            guard let value = value(depth: depth + 1) else { return nil }
            members.append(JSONMember(key: key, sortKey: sortKey, value: value))
            skipWhitespace()
        } while consume(",")
        return consume("}") ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> JSONNode? {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if consume("]") { return .array(elements) }
        repeat {
            skipWhitespace()
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
        } while consume(",")
        return consume("]") ? .array(elements) : nil
    }

    /// Reads a string literal at the opening quote and returns its decoded text.
    private mutating func string() -> String? {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int) {
            scalars += String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(index)
                guard let scalar = escape() else { return nil }
                scalars.append(scalar)
                runStart = index
            case ..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// Reads an escape at its backslash and returns the character it stands for (a lone
    /// surrogate stands for U+FFFD).
    private mutating func escape() -> Unicode.Scalar? {
        index += 1
        guard index < bytes.count else { return nil }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexQuad() else { return nil }
            if (0xD800..<0xDC00).contains(unit), bytes[index...].starts(with: Array("\\u".utf8)) {
                let resume = index
                index += 2
                if let low = hexQuad(), (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                }
                index = resume
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        default: return nil
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        _ = consume("-")
        if !consume("0") && digits() == 0 { return false }
        if consume("."), digits() == 0 { return false }
        if consume("e") || consume("E") {
            if !consume("+") { _ = consume("-") }
            if digits() == 0 { return false }
        }
        return true
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) -> JSONNode? {
        let start = index
        guard bytes[index...].starts(with: Array(word.utf8)) else { return nil }
        index += word.utf8.count
        return .scalar(start..<index)
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
