import CacheCore
import Foundation

@testable import CacheConsole
import TerminalUI

/// A JSON value with hostile strings everywhere: as object keys, values and array elements,
/// nested (the Detail screen pretty-prints it).
struct HostileDocument: Codable, Sendable {
    var name: String
    var fields: [String: String]
    var nested: [[String: [String]]]
}

/// A real cache file in a temporary folder, filled from one seed with hostile namespace
/// names, versions, keys, tags and values: text, JSON and raw bytes (invalid UTF-8), one
/// 100 KB key, one value past the Detail screen's 64 KiB cut, entries that never expire,
/// expire later or have expired, and some reads. Its clock stands at
/// ``FakeDataSource/now`` once it is filled, like the console harness's.
struct HostileStore {
    let folder = TemporaryFolder()
    let store: CacheStore
    /// Namespace names, in the order they were created.
    let namespaces: [String]
    /// Keys written, by namespace.
    let keys: [String: [String]]
    /// Tags written.
    let tags: [String]

    init(seed: UInt64, entriesPerNamespace: Int, hugeKeyBytes: Int = 100_000) throws {
        var text = HostileText(seed: seed)
        let hour: Int64 = 3_600_000
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(FakeDataSource.now - 3 * hour) / 1000))
        store = try CacheStore(
            path: folder.url.appendingPathComponent("hostile.sqlite").path, options: StoreOptions(clock: clock))
        var names: [String] = []
        while names.count < 3 {
            let name = text.string(maximumPieces: 3)
            if !name.isEmpty && !names.contains(name) { names.append(name) }
        }
        namespaces = names
        var tags = (0..<4).map { _ in text.string(maximumPieces: 2) }
        tags.append(text.word())
        self.tags = tags
        var keys: [String: [String]] = [:]

        func policy() -> NamespacePolicy {
            NamespacePolicy(staleWindow: .seconds(30)).version(
                text.random.chance(0.7) ? text.string(maximumPieces: 2) : "")
        }
        func entryKeys() -> [String] {
            var set: [String] = []
            while set.count < entriesPerNamespace {
                let key = text.string()
                if !set.contains(key) { set.append(key) }
            }
            return set
        }
        func expiration() -> Expiration {
            switch Int.random(in: 0..<4, using: &text.random) {
            case 0: .never
            case 1: .after(.milliseconds(Int64.random(in: 1...(2 * hour), using: &text.random)))  // expired by now
            default: .after(.milliseconds(Int64.random(in: (3 * hour + 1)...(400 * hour), using: &text.random)))
            }
        }
        func entryTags() -> [String] {
            (0..<Int.random(in: 0...2, using: &text.random)).map { _ in text.random.pick(tags) }
        }

        let plain = try store.cache(names[0], key: String.self, value: String.self, policy: policy())
        var plainKeys = entryKeys()
        plainKeys.append(text.huge(bytes: hugeKeyBytes))
        for key in plainKeys {
            try plain.set(text.string(maximumPieces: 12), for: key, expiration: expiration(), tags: entryTags())
        }
        keys[names[0]] = plainKeys

        let documents = try store.cache(names[1], key: String.self, value: HostileDocument.self, policy: policy())
        var documentKeys = entryKeys()
        for key in documentKeys {
            try documents.set(text.document(), for: key, expiration: expiration(), tags: entryTags())
        }
        let large = text.string()
        var big = text.document()
        big.fields[text.string()] = text.huge(bytes: 70_000)
        try documents.set(big, for: large, expiration: .never)
        documentKeys.append(large)
        keys[names[1]] = documentKeys

        let raw = try store.dataCache(names[2], key: String.self, policy: policy())
        let rawKeys = entryKeys()
        for key in rawKeys {
            try raw.set(text.rawValue(), for: key, expiration: expiration(), tags: entryTags())
        }
        keys[names[2]] = rawKeys
        self.keys = keys

        for key in plainKeys.prefix(3) { _ = try plain.get(key) }
        for key in rawKeys.prefix(2) { _ = try raw.get(key) }
        try store.flush()
        clock.advance(by: .milliseconds(3 * hour))
    }

    /// A data source over the file, as the console reads it.
    func dataSource() throws -> StoreDataSource {
        try StoreDataSource(store: store)
    }
}

extension HostileText {
    /// A document of hostile strings.
    mutating func document() -> HostileDocument {
        var fields: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { fields[string(maximumPieces: 3)] = string() }
        let nested = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            [string(maximumPieces: 2): (0..<Int.random(in: 0...3, using: &random)).map { _ in string() }]
        }
        return HostileDocument(name: string(), fields: fields, nested: nested)
    }

    /// A raw value: random bytes (mostly invalid UTF-8), valid UTF-8 text with controls, or
    /// JSON text whose strings hold raw C1, bidi and zero-width characters (valid JSON: no
    /// raw C0 controls inside strings), or a longer binary blob.
    mutating func rawValue() -> Data {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return bytes()
        case 1: return Data(string(maximumPieces: 10).utf8)
        case 2:
            let raw = string(maximumPieces: 6).unicodeScalars.filter { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }
            return Data("{\"\(String(String.UnicodeScalarView(raw)))\": [\"\(word())\", 1e308, null]}".utf8)
        default: return bytes(maximumCount: 20_000)
        }
    }
}
