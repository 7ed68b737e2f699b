import Foundation

/// Keys as text a person can read and type back.
///
/// Apps write keys as valid UTF-8, but a file is input: a key may hold any bytes. Decoding
/// such a key with replacement characters would print a key no command can find again, so a
/// key that is not valid UTF-8 is written with each stray byte as `\xNN` and each backslash as
/// `\\`; a lookup that finds no key spelled that way reads the escapes back to the bytes.
package enum PrintableKey {
    /// `bytes` as text: valid UTF-8 as it is, anything else escaped.
    package static func text(_ bytes: Data) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var result = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                result += scalar == "\\" ? "\\\\" : String(scalar)
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] { result += String(format: "\\x%02x", byte) }
                position += length
            case .emptyInput:
                return result
            }
        }
    }

    /// The bytes escaped `text` stands for; `nil` when it holds no escape (or a malformed one).
    package static func bytes(_ text: String) -> Data? {
        guard text.utf8.contains(0x5C) else { return nil }
        var bytes = Data()
        var escaped = false
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                bytes.append(contentsOf: Array(String(scalar).utf8))
                continue
            }
            escaped = true
            switch scalars.next() {
            case "\\": bytes.append(0x5C)
            case "x":
                guard let high = scalars.next(), let low = scalars.next(),
                    let byte = UInt8(String(high) + String(low), radix: 16)
                else { return nil }
                bytes.append(byte)
            default: return nil
            }
        }
        return escaped ? bytes : nil
    }
}
