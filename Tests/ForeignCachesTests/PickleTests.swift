import CacheDeckTestSupport
import Foundation
import Testing

@testable import ForeignCaches

/// Pickles read as data: Python itself is the oracle (what it pickles, `repr` prints; the
/// reader must print the same), and hostile or damaged pickles are bounded or refused.
@Suite(.enabled(if: PythonLibraries.isAvailable, "python3 with venv and PyPI are unavailable"))
struct PythonPickleTests {
    /// Random nested data of every kind the reader follows, pickled with protocols 2–5:
    /// each prints exactly as Python's `repr` (short values, so on one line).
    @Test func dataPrintsAsPythonsRepr() throws {
        let output = try PythonLibraries.script(
            #"""
            import pickle, random
            rng = random.Random(26)
            alphabet = list("ab' \"\\\n\t") + ["\x00", "\x7f", "é", "ключ", "🙂", "\u2028", "\xa0"]
            def scalar():
                return rng.choice([
                    None, True, False, rng.randint(-300, 300), rng.randint(-2**70, 2**70), rng.randint(0, 2**40),
                    rng.choice([0.5, -2.25, 1e16, 1e-5, 0.1, 123456789.125, float("inf"), -0.0]),
                    "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))),
                    bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 4))) + rng.choice([b"", b"'", b'"'])])
            def value(depth):
                if depth > 2 or rng.random() < 0.4:
                    return scalar()
                kind = rng.choice(["list", "tuple", "dict", "set", "frozenset"])
                items = [value(depth + 1) for _ in range(rng.randint(0, 3))]
                if kind == "list": return items
                if kind == "tuple": return tuple(items)
                def is_hashable(item):
                    try: return hash(item) is not None
                    except TypeError: return False
                hashable = [i for i in items if is_hashable(i)]
                if kind == "dict": return {h: value(depth + 1) for h in hashable}
                return set(hashable) if kind == "set" else frozenset(hashable)
            for n in range(400):
                v = value(0)
                text = repr(v)
                if len(text) <= 70:
                    print(pickle.dumps(v, protocol=2 + n % 4).hex() + "\t" + text.encode().hex())
            """#)
        let cases = output.split(separator: "\n").map { $0.split(separator: "\t").map { Self.bytes(String($0)) } }
        #expect(cases.count > 200)
        for pair in cases {
            let printed = try #require(PickleValue.reading(pair[0]) { PickleText.render($0, limit: 1000) }, "\(pair[0])")
            #expect(printed.text == String(decoding: pair[1], as: UTF8.self))
        }
    }

    /// Containers inside themselves print as Python prints them; objects and calls are named,
    /// never made, including a pickle that would run a shell command when loaded.
    @Test func cyclesObjectsAndCallsAreShownNotRun() throws {
        let fixtures = try SchemaFixtures()
        defer { fixtures.remove() }
        let marker = fixtures.path("ran")
        let lines = try PythonLibraries.script(
            #"""
            import pickle, os, datetime, sys, types
            class Point:
                def __init__(self): self.x, self.y = 1, 2
            Point.__module__ = "shapes"
            sys.modules["shapes"] = types.SimpleNamespace(Point=Point)
            class Evil:
                def __reduce__(self): return (os.system, ("touch \#(marker)",))
            l = []; l.append(l)
            d = {}; d["self"] = d
            for v in [l, d, Point(), Evil(), datetime.date(2026, 11, 27)]:
                print(pickle.dumps(v, protocol=4).hex())
            """#
        ).split(separator: "\n")
        let texts = try lines.map {
            try #require(PickleValue.reading(Self.bytes(String($0))) { PickleText.render($0, limit: 1000).text })
        }
        #expect(texts[0] == "[[...]]" && texts[1] == "{'self': {...}}")
        #expect(texts[2] == "shapes.Point(state={'x': 1, 'y': 2})")
        #expect(texts[3] == "posix.system('touch \(marker)')")
        #expect(texts[4] == #"datetime.date(b'\x07\xea\x0b\x1b')"#)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while let end = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < end {
            bytes.append(UInt8(hex[index..<end], radix: 16) ?? 0)
            index = end
        }
        return bytes
    }
}

/// Pickles no library would write: the reader refuses them or bounds what it prints.
@Suite struct HostilePickleTests {
    /// Every prefix of a valid pickle is refused (no `STOP`), never read past its end.
    @Test func truncatedPicklesAreRefused() {
        // pickle.dumps({'a': [1, 2.5, b'x']}, protocol=4)
        let pickle = PythonPickleTests.bytes(
            "8004951b000000000000007d948c0161945d94284b014740040000000000004301789465732e")
        #expect(PickleValue.reading(pickle) { _ in true } == true)
        for length in 0..<pickle.count {
            #expect(PickleValue.reading(Array(pickle.prefix(length))) { _ in true } == nil)
        }
    }

    /// A list that holds 40 references to one list, 8 levels deep (40⁸ leaves), prints in at
    /// most the limit; a list nested 100,000 deep prints its top levels and `…`.
    @Test func sharedAndDeepStructuresAreBounded() throws {
        var wide: [UInt8] = [0x80, 0x04, UInt8(ascii: "]"), UInt8(ascii: "q"), 0]
        for level in 1...8 {
            wide += [UInt8(ascii: "0"), UInt8(ascii: "]"), UInt8(ascii: "q"), UInt8(level), UInt8(ascii: "(")]
            wide += Array(repeating: [UInt8(ascii: "h"), UInt8(level - 1)], count: 40).flatMap { $0 }
            wide += [UInt8(ascii: "e")]
        }
        wide += [UInt8(ascii: ".")]
        let printed = try #require(PickleValue.reading(wide) { PickleText.render($0, limit: 10_000) })
        #expect(printed.isTruncated && printed.text.count <= 10_000)

        var deep: [UInt8] = [0x80, 0x04]
        deep += Array(repeating: UInt8(ascii: "]"), count: 100_000)
        deep += Array(repeating: UInt8(ascii: "a"), count: 99_999) + [UInt8(ascii: ".")]
        let text = try #require(PickleValue.reading(deep) { PickleText.render($0, limit: 10_000).text })
        #expect(text.hasPrefix("[\n  [\n    [\n") && text.contains("…") && text.count < 10_000)
    }

    /// An integer of 60,000 bytes (`LONG4`) is named by its size: its decimal digits would take
    /// minutes to compute. One of Python's limit (4,300 digits) is still written out.
    @Test func aHugeIntegerIsNamedNotConverted() throws {
        var huge: [UInt8] = [0x80, 0x04, 0x8B] + [0x60, 0xEA, 0x00, 0x00]  // LONG4, 60,000 bytes
        huge += Array(repeating: 0x11, count: 60_000) + [UInt8(ascii: ".")]
        #expect(PickleValue.reading(huge) { PickleText.render($0, limit: 1000).text } == "int(<60000 bytes>)")
        let largest: [UInt8] = [0x80, 0x04, 0x8B, 0xF9, 0x06, 0x00, 0x00] + Array(repeating: 0x01, count: 1_785) + [0x2E]
        let text = try #require(PickleValue.reading(largest) { PickleText.render($0, limit: 10_000).text })
        #expect(text.count > 4_000 && text.allSatisfy { $0.isNumber })
        // Ten of them in a list: the first four are written out, the rest named.
        let long = Array(largest[2..<largest.count - 1])
        let many = [0x80, 0x04, UInt8(ascii: "(")] + Array(repeating: long, count: 10).joined() + [UInt8(ascii: "l"), 0x2E]
        let list = try #require(PickleValue.reading(many) { PickleText.render($0, limit: 100_000).text })
        #expect(list.components(separatedBy: "int(<1785 bytes>)").count - 1 == 6)
    }

    /// Opcodes that reach outside the pickle (persistent ids, extensions, buffers) and stack
    /// misuse are refused; random bytes never crash the reader.
    @Test func unknownOpcodesAndGarbageAreRefused() {
        let refused: [[UInt8]] = [
            [0x80, 0x04, UInt8(ascii: "P")] + Array("id\n.".utf8),  // PERSID
            [0x80, 0x04, 0x82, 0x01, UInt8(ascii: ".")],  // EXT1
            [0x80, 0x05, 0x97, UInt8(ascii: ".")],  // NEXT_BUFFER
            [0x80, 0x04, UInt8(ascii: "a"), UInt8(ascii: ".")],  // APPEND with nothing
            [0x80, 0x04, UInt8(ascii: "h"), 0x07, UInt8(ascii: ".")],  // GET of nothing memoized
            [0x80, 0x04, UInt8(ascii: "N"), UInt8(ascii: "N"), UInt8(ascii: ".")],  // two values left
            [0x80, 0x04, 0x8D] + Array(repeating: 0xFF, count: 8) + [UInt8(ascii: ".")],  // a length past the end
        ]
        for pickle in refused { #expect(PickleValue.reading(pickle) { _ in true } == nil, "\(pickle)") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let garbage = [0x80, 0x04] + (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = PickleValue.reading(garbage) { PickleText.render($0, limit: 1000) }
        }
    }

    /// A list inside itself (`l = []; l.append(l)`, protocol 4) is freed once read: its cycle
    /// is cut, so a console showing such values again and again does not grow.
    @Test func aCycleIsFreedAfterReading() throws {
        weak var read: PickleValue?
        let text = PickleValue.reading(PythonPickleTests.bytes("80049506000000000000005d946800612e")) { value in
            read = value
            return PickleText.render(value, limit: 100).text
        }
        #expect(text == "[[...]]" && read == nil)
    }
}
