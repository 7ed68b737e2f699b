import Foundation
import Testing

@testable import CacheCore

@Suite struct InspectorDetailTests {
    struct Part: Codable {
        let name: String
        let id: Int
        let colors: [String]
        let box: [String: Int]
    }

    /// Stores `value` raw under key `k` and returns the inspector's detail of it.
    static func detail(of value: Data, options: EntryDetailOptions = EntryDetailOptions()) throws -> EntryDetail {
        let fixture = try TestStore()
        try fixture.store.dataCache("n", key: String.self).set(value, for: "k")
        return try #require(try fixture.store.inspector.entry(namespace: "n", key: "k", options: options))
    }

    @Test func jsonValuesArePrettyPrintedWithSortedKeys() throws {
        let fixture = try TestStore()
        let parts = try fixture.store.cache("parts", key: Int.self, value: Part.self)
        try parts.set(Part(name: "Brick 2x4", id: 3001, colors: ["red", "blue"], box: [:]), for: 3001)
        let detail = try #require(try fixture.store.inspector.entry(namespace: "parts", key: "3001"))
        #expect(
            detail.value
                == .json(
                    """
                    {
                      "box": {},
                      "colors": [
                        "red",
                        "blue"
                      ],
                      "id": 3001,
                      "name": "Brick 2x4"
                    }
                    """, isTruncated: false))
        #expect(detail.entry.key == "3001" && detail.entry.namespace == "parts" && !detail.isExpired)
        #expect(try fixture.store.inspector.entry(namespace: "parts", key: "9") == nil)
        #expect(try fixture.store.inspector.entry(id: 999) == nil)
    }

    @Test func numbersStringsAndDuplicateKeysAreShownExactlyAsStored() throws {
        let stored =
            #"{"é":1,"z":[],"\u0062":1.50,"a":12345678901234567890123e-3,"e":"\u001b[31m","e":null, "a2" : -0}"#
        let detail = try Self.detail(of: Data(stored.utf8))
        #expect(
            detail.value
                == .json(
                    """
                    {
                      "a": 12345678901234567890123e-3,
                      "a2": -0,
                      "\\u0062": 1.50,
                      "e": "\\u001b[31m",
                      "e": null,
                      "z": [],
                      "é": 1
                    }
                    """, isTruncated: false))
        #expect(try Self.detail(of: Data("  42 ".utf8)).value == .json("42", isTruncated: false))
    }

    @Test func otherBytesAreHexDumped() throws {
        let value = Data("hello\u{1B}\n\0world, this is seventeen+ bytes".utf8) + Data([0xFF, 0x80])
        let detail = try Self.detail(of: value)
        guard case .hexDump(let lines, let isTruncated) = detail.value else {
            Issue.record("expected a hex dump, got \(detail.value)")
            return
        }
        #expect(!isTruncated)
        #expect(lines.map(\.offset) == [0, 16, 32])
        #expect(lines[0].hex == "68 65 6c 6c 6f 1b 0a 00  77 6f 72 6c 64 2c 20 74")
        #expect(lines[0].ascii == "hello...world, t")
        #expect(lines[2].hex.count == lines[0].hex.count, "the last line is padded to full width")
        #expect(lines[2].ascii == "+ bytes..")
        let json = try Self.detail(of: Data("[1]".utf8), options: EntryDetailOptions(format: .hexDump))
        #expect(
            json.value
                == .hexDump(
                    [HexDumpLine(offset: 0, hex: "5b 31 5d" + String(repeating: " ", count: 40), ascii: "[1]")],
                    isTruncated: false))
    }

    @Test func largeValuesAreCutAtTheLimitAndSaySo() throws {
        let numbers = "[" + (0..<10_000).map(String.init).joined(separator: ",") + "]"
        let json = try Self.detail(of: Data(numbers.utf8), options: EntryDetailOptions(maxBytes: 100))
        guard case .json(let text, let isTruncated) = json.value else {
            Issue.record("expected JSON")
            return
        }
        #expect(isTruncated && text.utf8.count <= 100 && text.hasPrefix("[\n  0,\n  1,"))
        let binary = try Self.detail(of: Data(repeating: 0xAB, count: 200_000))
        guard case .hexDump(let lines, let cut) = binary.value else {
            Issue.record("expected a hex dump")
            return
        }
        #expect(cut && lines.count == 64 * 1024 / 16)
        #expect(binary.entry.valueBytes == 200_000 && binary.entry.preview.count == 64)
        let accented = try Self.detail(of: Data("[[\"ééééé\"]]".utf8), options: EntryDetailOptions(maxBytes: 16))
        #expect(
            accented.value == .json("[\n  [\n    \"éé", isTruncated: true), "cut between characters, not inside one")
    }

    @Test func hostileValuesFallBackToHexWithoutCrashing() throws {
        let hostile = [
            Data(repeating: UInt8(ascii: "["), count: 200_000),
            Data((String(repeating: "[", count: 150) + String(repeating: "]", count: 150)).utf8),
            Data("{\"a\":\"\u{7}raw control\"}".utf8),
            Data([0x22, 0xFF, 0x22]),
            Data("{\"a\":1,}".utf8), Data("[01]".utf8), Data("\"\\x\"".utf8), Data("tru".utf8), Data(),
        ]
        for value in hostile {
            let detail = try Self.detail(of: value)
            guard case .hexDump(let lines, _) = detail.value else {
                Issue.record("\(value.prefix(20)) rendered as JSON")
                continue
            }
            #expect(
                lines.allSatisfy { line in line.ascii.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) } })
        }
        let deep = String(repeating: "[", count: 99) + String(repeating: "]", count: 99)
        guard case .json = try Self.detail(of: Data(deep.utf8)).value else {
            Issue.record("99 levels are JSON")
            return
        }
    }
}
