import CacheCore
import Foundation

/// A key of every kind whose `Codable` form depends on hash order or number formatting: the
/// same type (field for field) is in the library tests, which build it with other insertion
/// orders in another process.
struct CompositeKey: Codable, Hashable, Sendable {
    struct Tile: Codable, Hashable, Sendable {
        let zoom: Int
        let x: Int
    }

    let tags: Set<String>
    let weights: [Date: Double]
    let tiles: [Tile: Set<Int>]
    let names: [Int: String]
    let day: Date
    let ratio: Double

    static func sample(reversed: Bool) -> CompositeKey {
        let words = (0..<12).map { "tag-\($0)" }
        var tags = Set<String>()
        for word in reversed ? words.reversed() : words { tags.insert(word) }
        var weights: [Date: Double] = [:]
        var tiles: [Tile: Set<Int>] = [:]
        var names: [Int: String] = [:]
        for index in reversed ? Array((0..<10).reversed()) : Array(0..<10) {
            weights[Date(timeIntervalSince1970: 1_700_000_000.125 + Double(index))] = Double(index) / 3
            tiles[Tile(zoom: index, x: index * 7)] = Set((0..<index).map { $0 * 11 })
            names[index * 5] = "n\(index)"
        }
        return CompositeKey(
            tags: tags, weights: weights, tiles: tiles, names: names,
            day: Date(timeIntervalSinceReferenceDate: 785_000_000.123456), ratio: 0.1 + 0.2)
    }
}

/// `composite-key PATH`: stores "from-helper" under ``CompositeKey/sample(reversed:)`` and
/// prints `ok`.
struct CompositeKeyCommand {
    let path: String

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
    }

    func run() throws {
        let store = try CacheStore(path: path)
        let cache = try store.cache("composite", key: CompositeKey.self, value: String.self)
        try cache.set("from-helper", for: .sample(reversed: false))
        try store.close()
        Output.say("ok")
    }
}
