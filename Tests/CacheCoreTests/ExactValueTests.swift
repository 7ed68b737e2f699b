import Foundation
import Testing

@testable import CacheCore

private struct Reading: Codable, Sendable, Equatable {
    struct Sample: Codable, Sendable, Equatable {
        let at: Date
        let value: Double?
    }

    let taken: Date
    let doubles: [Double]
    let floats: [Float]
    let blob: Data
    let note: String?
    let missing: Int?
    let nested: [String: [Sample]]
    let byDay: [Date: [Int: Sample]]
    let flags: Set<Int>

    /// Bit-exact equality: `-0.0` differs from `0.0`, and a NaN equals a NaN.
    func isIdentical(to other: Reading) -> Bool {
        func same(_ a: [Double], _ b: [Double]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
        }
        func same(_ a: [Float], _ b: [Float]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
        }
        return taken == other.taken && same(doubles, other.doubles) && same(floats, other.floats)
            && blob == other.blob && note == other.note && missing == other.missing && nested == other.nested
            && byDay == other.byDay && flags == other.flags
    }

    static let sample = Reading(
        taken: Date(timeIntervalSinceReferenceDate: 785_000_000.123456789),
        doubles: [
            0.1 + 0.2, -0.0, 0, .pi, 1e300, -1e-300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .ulpOfOne, .infinity, -.infinity, .nan,
            Double(Int64.max), 9_007_199_254_740_992,
        ],
        floats: [0.1, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, .nan],
        blob: Data((0...255).map { UInt8($0) }),
        note: nil, missing: nil,
        nested: ["a": [Sample(at: Date(timeIntervalSince1970: 0.001), value: nil)], "b": []],
        byDay: [Date(timeIntervalSince1970: 1_700_000_000.5): [3: Sample(at: .distantPast, value: -1.5)]],
        flags: [1, 2, 3])
}

@Suite struct ExactValueTests {
    @Test func aValueReadsBackIdenticalFromTheFile() throws {
        let fixture = try TestStore()
        try fixture.store.cache("r", key: String.self, value: Reading.self).set(.sample, for: "k")
        let fromFile = try #require(try fixture.reopen().cache("r", key: String.self, value: Reading.self).get("k"))
        #expect(fromFile.isIdentical(to: .sample))
    }

    /// In a hybrid namespace one process reads the memory copy and another the file row:
    /// both must see the same value.
    @Test func memoryAndFileAgreeInAHybridNamespace() throws {
        let fixture = try TestStore()
        let writer = try fixture.store.cache("r", key: String.self, value: Reading.self, policy: .hybrid)
        try writer.set(.sample, for: "k")
        let fromMemory = try #require(try writer.get("k"))
        let reader = try fixture.reopen().cache("r", key: String.self, value: Reading.self, policy: .hybrid)
        let fromFile = try #require(try reader.get("k"))
        #expect(fromFile.isIdentical(to: fromMemory))
        let again = try #require(try reader.get("k"), "now from the reader's memory copy")
        #expect(again.isIdentical(to: fromMemory))
    }

    @Test func datesKeepEveryBitAndReadAsText() throws {
        let coder = JSONValueCoder<[Date]>()
        var generator = SystemRandomNumberGenerator()
        var dates = (0..<2000).map { _ in
            Date(
                timeIntervalSinceReferenceDate: Double.random(in: -63_000_000_000...250_000_000_000, using: &generator))
        }
        dates += [
            .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0),
            Date(timeIntervalSinceReferenceDate: -0.25), Date(timeIntervalSinceReferenceDate: -1e-20),
            Date(timeIntervalSinceReferenceDate: 1e-300), Date(timeIntervalSince1970: 0), Date(),
            Date(timeIntervalSinceReferenceDate: 1e18),
        ]
        let decoded = try coder.decode(try coder.encode(dates))
        for (written, read) in zip(dates, decoded) {
            #expect(written.timeIntervalSinceReferenceDate.bitPattern == read.timeIntervalSinceReferenceDate.bitPattern)
        }
        let text = String(decoding: try coder.encode([Date(timeIntervalSince1970: 1_763_932_216.25)]), as: UTF8.self)
        #expect(text == #"["2025-11-23T21:10:16.25Z"]"#)
        #expect(
            try JSONValueCoder<Date>().encode(Date(timeIntervalSince1970: 0)) == Data(#""1970-01-01T00:00:00Z""#.utf8))
    }

    /// Files written before fractional seconds hold whole-second ISO 8601 text.
    @Test func valuesWrittenByTheEarlierCoderStillDecode() throws {
        let fixture = try TestStore()
        let raw = try fixture.store.dataCache("r", key: String.self)
        try raw.set(Data(#"{"at":"2026-11-23T21:10:16Z","value":2.5}"#.utf8), for: "old")
        try raw.set(Data(#"{"at":"2026-11-23T22:10:16+01:00"}"#.utf8), for: "offset")
        let typed = try fixture.store.cache("r", key: String.self, value: Reading.Sample.self)
        let expected = Date(timeIntervalSince1970: 1_795_468_216)
        #expect(try typed.get("old") == Reading.Sample(at: expected, value: 2.5))
        #expect(try typed.get("offset") == Reading.Sample(at: expected, value: nil))
    }

    @Test func optionalValuesRoundTrip() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("o", key: Int.self, value: [Int?].self)
        try cache.set([1, nil, 3], for: 1)
        #expect(try fixture.reopen().cache("o", key: Int.self, value: [Int?].self).get(1) == [1, nil, 3])
    }
}
