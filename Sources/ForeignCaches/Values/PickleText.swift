/// A ``PickleValue`` written the way Python's `repr` writes it (`{'id': 3, 'tags': ('a',)}`),
/// a container over one line broken into indented lines, a call as `module.name(arguments)`
/// (with `state=` what `BUILD` would have given it). A container inside itself is written
/// `[...]` as Python does; depth and length are bounded, so a hostile pickle costs at most
/// `limit` characters.
struct PickleText {
    /// Where a container breaks into lines.
    static let lineWidth = 76
    /// Deeper than this, a value is written `…`.
    static let maxDepth = 48

    private var text = ""
    private var count = 0
    private let limit: Int
    private var open: Set<ObjectIdentifier> = []
    private(set) var isTruncated = false

    /// `value`'s text, cut at about `limit` characters (then `isTruncated`).
    static func render(_ value: PickleValue, limit: Int) -> (text: String, isTruncated: Bool) {
        var writer = PickleText(limit: limit)
        writer.write(value, indent: 0, depth: 0)
        return (writer.text, writer.isTruncated)
    }

    /// `value` on one line, cut with `…` past about `limit` characters (a key's label).
    static func line(_ value: PickleValue, limit: Int) -> String {
        var writer = PickleText(limit: limit)
        writer.writeFlat(value, depth: 0)
        return writer.isTruncated ? writer.text + "…" : writer.text
    }

    private init(limit: Int) { self.limit = limit }

    private mutating func append(_ piece: String) {
        guard !isTruncated else { return }
        count += piece.count
        if count > limit {
            isTruncated = true
        } else {
            text += piece
        }
    }

    /// Writes `value`, on one line when it fits in the width left at `indent`.
    private mutating func write(_ value: PickleValue, indent: Int, depth: Int) {
        guard !isTruncated else { return }
        let id = ObjectIdentifier(value)
        guard depth < Self.maxDepth, let (head, tail) = Self.brackets(value), !open.contains(id) else {
            return writeFlat(value, depth: depth)
        }
        var line = PickleText(limit: Self.lineWidth - indent)
        line.open = open
        line.writeFlat(value, depth: depth)
        if !line.isTruncated { return append(line.text) }
        open.insert(id)
        defer { open.remove(id) }
        append(head + "\n")
        let children = Self.children(of: value)
        for (index, child) in children.enumerated() {
            append(String(repeating: " ", count: indent + 2))
            if let key = child.key {
                write(key, indent: indent + 2, depth: depth + 1)
                append(child.separator)
            }
            write(child.value, indent: indent + 2, depth: depth + 1)
            append(index < children.count - 1 || value.kind == .tuple && children.count == 1 ? ",\n" : "\n")
        }
        append(String(repeating: " ", count: indent) + tail)
    }

    /// Writes `value` on one line (stops, truncated, past the limit).
    private mutating func writeFlat(_ value: PickleValue, depth: Int) {
        guard !isTruncated else { return }
        guard depth < Self.maxDepth else { return append("…") }
        switch value.kind {
        case .none: return append("None")
        case .bool, .int, .float, .global: return append(value.text)
        case .string: return append(Self.quoted(value.text))
        case .bytes: return append(Self.quoted(value.bytes))
        default: break
        }
        let id = ObjectIdentifier(value)
        guard let (head, tail) = Self.brackets(value) else { return }
        guard !open.contains(id) else { return append(value.kind == .call ? "…" : head + "..." + tail) }
        if value.items.isEmpty, value.kind == .set || value.kind == .frozenset {
            return append(value.kind == .set ? "set()" : "frozenset()")
        }
        open.insert(id)
        defer { open.remove(id) }
        append(head)
        let children = Self.children(of: value)
        for (index, child) in children.enumerated() {
            if index > 0 { append(", ") }
            if let key = child.key {
                writeFlat(key, depth: depth + 1)
                append(child.separator)
            }
            writeFlat(child.value, depth: depth + 1)
        }
        if value.kind == .tuple && children.count == 1 { append(",") }
        append(tail)
    }

    /// A container's opening and closing text; `nil` for a scalar.
    private static func brackets(_ value: PickleValue) -> (String, String)? {
        switch value.kind {
        case .list: ("[", "]")
        case .tuple: ("(", ")")
        case .dict, .set: ("{", "}")
        case .frozenset: ("frozenset({", "})")
        case .call: ((value.items.first.map(callee) ?? "?") + "(", ")")
        default: nil
        }
    }

    /// A call's callee as text (a name, or a flat call for a callee that is itself a call).
    private static func callee(_ value: PickleValue) -> String {
        var line = PickleText(limit: lineWidth)
        line.writeFlat(value, depth: maxDepth - 1)
        return line.text
    }

    /// What a container shows: a dict's pairs, a call's arguments then its state.
    private static func children(of value: PickleValue) -> [(key: PickleValue?, separator: String, value: PickleValue)] {
        switch value.kind {
        case .dict:
            return stride(from: 0, to: value.items.count - 1, by: 2).map { (value.items[$0], ": ", value.items[$0 + 1]) }
        case .call:
            let arguments = value.items.dropFirst().first?.items ?? []
            let state = value.items.dropFirst(2).map { (PickleValue(.global, text: "state"), "=", $0) }
            return arguments.map { (nil, "", $0) } + state.map { (Optional($0.0), $0.1, $0.2) }
        default:
            return value.items.map { (nil, "", $0) }
        }
    }

    /// A str as Python writes it: single quotes unless the text holds one and no double quote;
    /// what Python does not call printable (controls, formats, separators but the space)
    /// escaped.
    static func quoted(_ text: String) -> String {
        let quote = Self.quote(for: text.unicodeScalars.map(\.value))
        var out = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case " ": out += " "
            case _ where scalar == quote: out += "\\" + String(quote)
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .surrogate, .privateUse,
                    .unassigned:
                    out += scalar.value <= 0xFF ? "\\x" + hex(scalar.value, digits: 2)
                        : scalar.value <= 0xFFFF ? "\\u" + hex(scalar.value, digits: 4) : "\\U" + hex(scalar.value, digits: 8)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + String(quote)
    }

    /// Bytes as Python writes them: `b'…'` (quoted as a str is), printable ASCII as it is,
    /// the rest `\xNN`.
    static func quoted(_ bytes: [UInt8]) -> String {
        let quote = Self.quote(for: bytes.map(UInt32.init))
        var out = "b" + String(quote)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(quote.value): out += "\\" + String(quote)
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "\\x" + hex(UInt32(byte), digits: 2)
            }
        }
        return out + String(quote)
    }

    /// Python's quote: `'`, unless the text holds one and no `"`.
    private static func quote(for scalars: [UInt32]) -> Unicode.Scalar {
        scalars.contains(0x27) && !scalars.contains(0x22) ? "\"" : "'"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
