/// One line of a hex dump: 16 bytes as hex and as ASCII, like `hexdump -C`.
public struct HexDumpLine: Sendable, Hashable, Codable {
    /// The offset of the line's first byte in the value.
    public var offset: Int
    /// The bytes in hex, two groups of eight, padded to full width on a short last line.
    public var hex: String
    /// The bytes as ASCII, `.` for anything outside printable ASCII (so never a control byte).
    public var ascii: String

    static let bytesPerLine = 16

    /// The lines of `bytes`, the first at offset 0.
    package static func lines(_ bytes: [UInt8]) -> [HexDumpLine] {
        stride(from: 0, to: bytes.count, by: bytesPerLine).map { offset in
            let chunk = bytes[offset..<min(offset + bytesPerLine, bytes.count)]
            let cells = (0..<bytesPerLine).map { column in
                let index = offset + column
                let cell = index < chunk.endIndex ? hexByte(chunk[index]) : "  "
                return column == bytesPerLine / 2 ? " " + cell : cell
            }
            let ascii = chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." }
            return HexDumpLine(offset: offset, hex: cells.joined(separator: " "), ascii: String(ascii))
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
