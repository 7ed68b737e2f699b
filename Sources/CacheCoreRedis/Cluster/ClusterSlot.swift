import Foundation

/// The hash slot of a key in a Redis Cluster: CRC16 (XMODEM) of the key's hash tag (the
/// bytes between its first `{` and the next `}`, when not empty) or of the whole key, modulo
/// 16,384. Keys with the same tag share a slot, so one script or transaction may touch them all.
package enum ClusterSlot {
    /// Slots in a cluster.
    package static let count = 16_384

    /// The slot of `key`.
    package static func of(_ key: some Collection<UInt8>) -> Int {
        Int(crc16(hashed(key)) % UInt16(count))
    }

    /// The part of `key` that is hashed: its tag, or all of it.
    static func hashed<Key: Collection<UInt8>>(_ key: Key) -> Key.SubSequence {
        if let open = key.firstIndex(of: UInt8(ascii: "{")) {
            let afterOpen = key.index(after: open)
            if let close = key[afterOpen...].firstIndex(of: UInt8(ascii: "}")), close != afterOpen {
                return key[afterOpen..<close]
            }
        }
        return key[...]
    }

    /// CRC16-XMODEM (polynomial 0x1021, initial value 0), as Redis Cluster uses.
    static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int((crc >> 8) ^ UInt16(byte))] }
        return crc
    }

    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        return crc
    }
}
