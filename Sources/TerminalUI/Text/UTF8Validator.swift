import Foundation

/// Decodes UTF-8 byte by byte, reporting each byte that does not start a well-formed sequence
/// (overlong forms, surrogates and values above U+10FFFF included) so it can be shown as `\xNN`.
struct UTF8Validator: IteratorProtocol {
    enum Element: Equatable {
        case scalar(Unicode.Scalar)
        case invalid(UInt8)
    }

    private let bytes: Data
    private var index: Data.Index

    init(_ bytes: Data) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    mutating func next() -> Element? {
        guard index < bytes.endIndex else { return nil }
        let lead = bytes[index]
        guard let (length, secondRange) = Self.shape(of: lead) else {
            index += 1
            return lead < 0x80 ? .scalar(Unicode.Scalar(lead)) : .invalid(lead)
        }
        var value = UInt32(lead) & (0x7F >> length)
        for offset in 1..<length {
            let position = index + offset
            let allowed: ClosedRange<UInt8> = offset == 1 ? secondRange : 0x80...0xBF
            guard position < bytes.endIndex, allowed.contains(bytes[position]) else {
                index += 1
                return .invalid(lead)
            }
            value = value << 6 | UInt32(bytes[position] & 0x3F)
        }
        index += length
        guard let scalar = Unicode.Scalar(value) else { return .invalid(lead) }
        return .scalar(scalar)
    }

    /// The sequence length a lead byte announces and the range its second byte must fall in;
    /// `nil` for ASCII and for bytes that cannot start a sequence.
    private static func shape(of lead: UInt8) -> (Int, ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80...0xBF)
        case 0xE0: return (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80...0xBF)
        case 0xED: return (3, 0x80...0x9F)
        case 0xF0: return (4, 0x90...0xBF)
        case 0xF1...0xF3: return (4, 0x80...0xBF)
        case 0xF4: return (4, 0x80...0x8F)
        default: return nil
        }
    }
}
