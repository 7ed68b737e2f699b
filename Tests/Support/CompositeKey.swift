import Foundation

/// A key of every kind whose `Codable` form depends on hash order or number formatting,
/// shared by the library tests and the test helper, which build it in other insertion orders
/// in two processes.
public struct CompositeKey: Codable, Hashable, Sendable {
    public struct Tile: Codable, Hashable, Sendable {
        let zoom: Int
        let x: Int
    }

    let tags: Set<String>
    let weights: [Date: Double]
    let tiles: [Tile: Set<Int>]
    let names: [Int: String]
    let day: Date
    let ratio: Double

    public static func sample(reversed: Bool) -> CompositeKey {
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
