import CacheCore
import Foundation

/// Deterministic keys and values, so every run does the same work.
enum Workload {
    /// `count` distinct keys: `<prefix>00000000`, `<prefix>00000001`, …
    static func keys(_ prefix: String, count: Int) -> [String] {
        (0..<count).map { key(prefix, $0) }
    }

    /// The key number `index` of `prefix`, zero-padded to 8 digits (short enough to be a
    /// small, unallocated Swift string).
    static func key(_ prefix: String, _ index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// `length` keys drawn from `keys` in random order: whole shuffles, one after another.
    static func randomOrder(of keys: [String], length: Int, generator: inout SplitMix64) -> [String] {
        var order: [String] = []
        order.reserveCapacity(length)
        while order.count < length {
            order += keys.shuffled(using: &generator).prefix(length - order.count)
        }
        return order
    }

    /// `count` pseudo-random values of `size` bytes.
    static func values(count: Int, size: Int, generator: inout SplitMix64) -> [Data] {
        (0..<count).map { _ in Data((0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }) }
    }

    /// `records` as JSON, encoded as CacheCore's default coder encodes them.
    static func encoded(_ records: [BenchRecord]) throws -> [Data] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try records.map { try encoder.encode($0) }
    }

    /// `count` JSON-codable records of about 100 bytes encoded.
    static func records(count: Int) -> [BenchRecord] {
        (0..<count).map { index in
            BenchRecord(
                id: index, name: "record \(index)", score: Double(index) / 7, tags: ["bench", "json"],
                active: index % 2 == 0)
        }
    }
}

/// The informational typed-cache payload (about 100 bytes as JSON).
struct BenchRecord: Codable, Sendable {
    let id: Int
    let name: String
    let score: Double
    let tags: [String]
    let active: Bool
}
