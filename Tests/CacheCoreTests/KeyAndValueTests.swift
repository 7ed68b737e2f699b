import Foundation
import Testing

@testable import CacheCore

private struct Color: CacheEntity, Equatable {
    static let cacheNamespace = "colors"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(expiration: .never)
    let id: Int
    let name: String
    var cacheKey: Int { id }
}

private struct PartColor: CacheEntity, Equatable {
    static let cacheNamespace = "part_colors"
    let part: String
    let color: Int
    var cacheKey: String { "\(part)_\(color)" }
}

private struct Coordinate: Codable, Sendable {
    let zoom: Int
    let x: Int
    let y: Int
}

/// The same fields declared in another order: canonical keys must not depend on it.
private struct ShuffledCoordinate: Codable, Sendable {
    let y: Int
    let zoom: Int
    let x: Int
}

private enum Shade: String, Codable, Sendable { case dark }

/// A coder that stores text reversed: proves the coder is pluggable.
private struct ReversedTextCoder: CacheValueCoder {
    func encode(_ value: String) throws -> Data { Data(String(value.reversed()).utf8) }
    func decode(_ data: Data) throws -> String { String(String(decoding: data, as: UTF8.self).reversed()) }
}

@Suite struct KeyAndValueTests {
    private func storedKeys(_ fixture: TestStore) throws -> [String] {
        let connection = try SQLiteConnection(
            path: fixture.path, readOnly: true, create: false, busyTimeout: .seconds(1))
        return try connection.withStatement("SELECT key FROM entries ORDER BY key") { try $0.rows { $0.text(0) } }
    }

    /// Configuration beats a type's default: `StoreOptions.policies["colors"]` is what
    /// `entities(Color.self)` uses, although `Color` says `.never`; a policy passed beats both.
    @Test func configuredPoliciesOverrideAnEntitysOwnAndAPassedOneOverridesBoth() throws {
        let configured = NamespacePolicy(expiration: .after(.seconds(60)))
        let fixture = try TestStore { $0.policies["colors"] = configured }
        #expect(try fixture.store.entities(Color.self).policy == configured)
        #expect(try fixture.store.entities(PartColor.self).policy == fixture.store.options.defaultPolicy)
        let passed = NamespacePolicy(expiration: .after(.seconds(5)))
        #expect(try fixture.store.entities(Color.self, policy: passed).policy == passed)
        let unconfigured = try TestStore()
        #expect(try unconfigured.store.entities(Color.self).policy == Color.cachePolicy)
    }

    @Test func keysAreCanonicalText() throws {
        let fixture = try TestStore()
        try fixture.store.cache("s", key: String.self, value: Int.self).set(1, for: "guests_42/x")
        try fixture.store.cache("i", key: Int.self, value: Int.self).set(1, for: -10)
        try fixture.store.cache("c", key: Coordinate.self, value: Int.self).set(1, for: Coordinate(zoom: 3, x: 1, y: 2))
        try fixture.store.cache("e", key: Shade.self, value: Int.self).set(1, for: .dark)
        #expect(try storedKeys(fixture) == ["-10", "dark", "guests_42/x", #"{"x":1,"y":2,"zoom":3}"#])
    }

    @Test func structKeysMatchWhateverTheFieldOrder() throws {
        let fixture = try TestStore()
        try fixture.store.cache("tiles", key: Coordinate.self, value: String.self).set(
            "png", for: Coordinate(zoom: 3, x: 1, y: 2))
        let other = try fixture.reopen().cache("tiles", key: ShuffledCoordinate.self, value: String.self)
        #expect(try other.get(ShuffledCoordinate(y: 2, zoom: 3, x: 1)) == "png")
    }

    @Test func entitiesDeclareTheirNamespaceAndKey() throws {
        let fixture = try TestStore()
        let colors = try fixture.store.entities(Color.self)
        try colors.put(Color(id: 10, name: "Bright Green"))
        #expect(try colors.get(10) == Color(id: 10, name: "Bright Green"))
        #expect(colors.policy.expiration == .never)

        let partColors = try fixture.store.entities(PartColor.self)
        try partColors.put([PartColor(part: "3001", color: 5), PartColor(part: "3002", color: 5)])
        #expect(try partColors.get("3001_5") == PartColor(part: "3001", color: 5))
        #expect(try storedKeys(fixture) == ["10", "3001_5", "3002_5"])
    }

    @Test func valuesAreJSONByDefaultSoToolsCanReadThem() throws {
        let fixture = try TestStore()
        try fixture.store.entities(Color.self).put(Color(id: 1, name: "White"))
        let raw = try fixture.store.dataCache("colors", key: Int.self, policy: Color.cachePolicy)
        let bytes = try #require(try raw.get(1))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"id":1,"name":"White"}"#)
    }

    @Test func rawDataIsStoredVerbatim() throws {
        let fixture = try TestStore()
        let blobs = try fixture.store.dataCache("blobs", key: String.self)
        let bytes = Data([0, 255, 27, 10, 0])
        try blobs.set(bytes, for: "b")
        try blobs.set(Data(), for: "empty")
        #expect(try blobs.get("b") == bytes)
        #expect(try blobs.get("empty") == Data())
    }

    @Test func aPluggableCoderControlsTheStoredBytes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("rev", key: String.self, coder: ReversedTextCoder())
        try cache.set("abc", for: "k")
        #expect(try cache.get("k") == "abc")
        #expect(try fixture.store.dataCache("rev", key: String.self).get("k") == Data("cba".utf8))
    }

    @Test func aValueThatNoLongerDecodesIsAMissAndOthersAreUnaffected() throws {
        let fixture = try TestStore()
        let text = try fixture.store.cache("mixed", key: String.self, value: String.self)
        try text.set("not a number", for: "bad")
        let numbers = try fixture.store.cache("mixed", key: String.self, value: Int.self)
        try numbers.set(7, for: "good")
        #expect(try numbers.get("bad") == nil)
        #expect(try numbers.get("good") == 7)
        #expect(fixture.store.decodeFailureCount == 1)
        #expect(try text.get("bad") == "not a number", "the undecodable row is kept")
    }

    @Test func tagsAreIndexedAndFollowOverwritesAndDeletes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("guests", key: String.self, value: Int.self)
        try cache.set(1, for: "g1", tags: ["tenant:7", "vip", "vip"])
        try cache.set(2, for: "g2", tags: ["tenant:7"])
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags WHERE tag = 'tenant:7'") == 2)
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags WHERE tag = 'vip'") == 1)
        try cache.set(1, for: "g1")
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags WHERE tag = 'vip'") == 0)
        try cache.remove("g2")
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags") == 0)
    }
}
