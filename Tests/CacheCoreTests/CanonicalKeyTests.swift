import Foundation
import CacheDeckTestSupport
import Testing

@testable import CacheCore

private struct Profile: Codable, Sendable {
    struct Address: Codable, Sendable {
        let city: String
        let lines: [String]
    }

    let name: String
    let age: Int8
    let score: Double
    let ratio: Float
    let big: UInt64
    let active: Bool
    let nickname: String?
    let address: Address
    let counts: [String: Int]
    let byNumber: [Int: String]
    let joined: Date
    let avatar: Data
    let home: URL
    let id: UUID
}

private enum Route: Codable, Sendable {
    case home
    case item(id: Int, variant: String?)
}

@Suite struct CanonicalKeyTests {
    @Test func setsAndDictionariesHaveOneTextWhateverTheirHashOrder() throws {
        let forward = try CanonicalKey.make(CompositeKey.sample(reversed: false), namespace: "n")
        let backward = try CanonicalKey.make(CompositeKey.sample(reversed: true), namespace: "n")
        #expect(forward == backward)
        #expect(forward.contains(#""tags":["tag-0","tag-1","tag-10","tag-11","tag-2""#))
    }

    /// Each process seeds `Hasher` at random, so a set is listed in another order in another
    /// process: the key must still be found.
    @Test func anotherProcessFindsAKeyWithSetsAndDictionaries() throws {
        let fixture = try TestStore()
        let helper = try HelperProcess(["composite-key", fixture.path])
        let exit = try helper.waitForExit()
        #expect(exit.succeeded, "\(exit.stderr)")
        let cache = try fixture.reopen().cache("composite", key: CompositeKey.self, value: String.self)
        #expect(try cache.get(.sample(reversed: true)) == "from-helper")
        #expect(try cache.get(.sample(reversed: false)) == "from-helper")
    }

    /// Keys of other types keep the text they were stored under before (sorted-key JSON), so
    /// existing files keep their entries.
    @Test func keysWithoutSetsKeepTheirEarlierText() throws {
        let legacy = JSONEncoder()
        legacy.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func earlier<Key: Encodable>(_ key: Key) throws -> String {
            let json = try legacy.encode(key)
            if json.first == UInt8(ascii: "\"") { return try JSONDecoder().decode(String.self, from: json) }
            return String(decoding: json, as: UTF8.self)
        }
        let profile = Profile(
            name: "Zoë \"Z\" \\ / \n\t\u{1}é😀", age: -3, score: 1e-7, ratio: 0.1, big: .max, active: true,
            nickname: nil, address: .init(city: "Oslo", lines: ["a/b", ""]),
            counts: ["b": 2, "a": 1, "B": 3, "10": 4, "9": 5], byNumber: [10: "ten", 9: "nine", -1: "m"],
            joined: Date(timeIntervalSinceReferenceDate: 12.5), avatar: Data([0, 1, 255]),
            home: URL(string: "https://example.com/a?b=c")!, id: UUID())
        #expect(try CanonicalKey.make(profile, namespace: "n") == earlier(profile))
        for route in [Route.home, .item(id: 4, variant: nil), .item(id: 5, variant: "x")] {
            #expect(try CanonicalKey.make(route, namespace: "n") == earlier(route))
        }
        for double in [1.0, 0.5, 1e20, 1.5e-300, .greatestFiniteMagnitude, -2.25, .pi] {
            #expect(try CanonicalKey.make(double, namespace: "n") == earlier(double))
            #expect(try CanonicalKey.make([double], namespace: "n") == earlier([double]))
        }
        #expect(try CanonicalKey.make(Float(0.1), namespace: "n") == earlier(Float(0.1)))
        #expect(try CanonicalKey.make([["x": [1, 2]]], namespace: "n") == earlier([["x": [1, 2]]]))
        #expect(try CanonicalKey.make(Date(timeIntervalSince1970: 1.25), namespace: "n") == "-978307198.75")
    }

    @Test func equalDoublesAreOneKeyAndNonFiniteOnesAreRefused() throws {
        #expect(try CanonicalKey.make(-0.0, namespace: "n") == CanonicalKey.make(0.0, namespace: "n"))
        #expect(try CanonicalKey.make(["x": -0.0], namespace: "n") == #"{"x":0}"#)
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: CacheError.self) { try CanonicalKey.make([bad], namespace: "n") }
        }
    }

    @Test func aSetKeyIsFoundFromAnyInsertionOrder() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("sets", key: Set<String>.self, value: Int.self)
        try cache.set(1, for: Set(["c", "a", "b"]))
        var other = Set<String>(minimumCapacity: 64)
        for element in ["b", "c", "a"] { other.insert(element) }
        #expect(try cache.get(other) == 1)
        #expect(try fixture.reopen().cache("sets", key: Set<String>.self, value: Int.self).get(other) == 1)
    }
}
