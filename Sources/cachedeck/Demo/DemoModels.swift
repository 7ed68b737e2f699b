import CacheCore
import Foundation

/// The demo's LEGO catalog, planner and mailbox records: realistic shapes and sizes.
struct LegoColor: Codable, Sendable, CacheEntity {
    static let cacheNamespace = "colors"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(expiration: .never)
    let id: Int
    let name: String
    let rgb: String
    let isTransparent: Bool
    var cacheKey: Int { id }
}

struct LegoTheme: Codable, Sendable, CacheEntity {
    static let cacheNamespace = "themes"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(expiration: .after(.seconds(30 * 86_400)))
    let id: Int
    let name: String
    let parentID: Int?
    var cacheKey: Int { id }
}

struct LegoPart: Codable, Sendable, CacheEntity {
    static let cacheNamespace = "parts"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(
        tiers: .memoryAndDisk, expiration: .after(.seconds(7 * 86_400)), staleWindow: .seconds(86_400))
    let number: String
    let name: String
    let category: String
    let colorIDs: [Int]
    let dimensions: [Double]
    var cacheKey: String { number }
}

struct LegoSet: Codable, Sendable, CacheEntity {
    static let cacheNamespace = "sets"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(
        tiers: .memoryAndDisk, expiration: .after(.seconds(86_400)), staleWindow: .seconds(3600))
    let number: String
    let name: String
    let year: Int
    let themeID: Int
    let pieces: Int
    let inventory: [String: Int]
    var cacheKey: String { number }
}

struct GuestList: Codable, Sendable {
    let tenant: String
    let guests: [String]
}

struct MailMessage: Codable, Sendable {
    let id: Int
    let from: String
    let subject: String
    let body: String
    let receivedAt: Date
}

/// Deterministic pseudo-random numbers, so every demo cache looks the same.
struct DemoRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An index in `0..<count` skewed toward 0 (a few keys get most of the traffic).
    mutating func skewed(_ count: Int) -> Int {
        let uniform = Double(next() % 1_000_000) / 1_000_000
        return min(count - 1, Int(Double(count) * pow(uniform, 3)))
    }

    /// A fake map tile: a PNG signature, then noise (so a hex dump looks like an image).
    mutating func tile(size: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes.reserveCapacity(size)
        while bytes.count < size { withUnsafeBytes(of: next()) { bytes += $0.prefix(size - bytes.count) } }
        return Data(bytes)
    }

    mutating func word() -> String {
        let syllables = ["bri", "ck", "lo", "go", "sta", "rk", "mo", "du", "le", "tra", "in", "ca", "stle", "po", "rt"]
        return (0..<Int.random(in: 2...4, using: &self)).map { _ in syllables.randomElement(using: &self) ?? "x" }
            .joined()
    }
}
