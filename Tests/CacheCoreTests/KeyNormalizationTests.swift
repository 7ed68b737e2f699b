import Foundation
import Testing

@testable import CacheCore

/// A key has one identity: the one Swift's `String ==` implies (canonical equivalence), stored
/// as Normalization Form C in memory, in the file, in other processes and for the CLI.
@Suite struct KeyNormalizationTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func theTwoSpellingsAreEqualStringsButDifferentBytes() {
        #expect(Self.composed == Self.decomposed)
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
    }

    /// Fails on a store that stores keys as spelled: memory said one entry, the file two.
    @Test(arguments: [NamespacePolicy.default, .hybrid])
    func bothSpellingsAreOneEntryInMemoryAndFile(_ policy: NamespacePolicy) throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("menu", key: String.self, value: String.self, policy: policy)
        try cache.set("first", for: Self.composed)
        try cache.set("second", for: Self.decomposed)
        #expect(try cache.get(Self.composed) == "second")
        #expect(try cache.count() == 1)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1)
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE key = CAST(x'636166C3A9' AS TEXT)") == 1)

        let other = try fixture.reopen()
        let fresh = try other.cache("menu", key: String.self, value: String.self, policy: policy)
        #expect(try fresh.get(Self.decomposed) == "second", "a cold memory tier reads the file's one row")
        #expect(try cache.remove(Self.decomposed))
        try other.synchronize()
        #expect(try fresh.get(Self.composed) == nil)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func invalidationAndTheInspectorTakeEitherSpelling() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("menu", key: String.self, value: String.self)
        try cache.set("x", for: Self.composed + "-1")
        try cache.set("y", for: Self.composed + "-2")
        #expect(try fixture.store.inspector.entry(namespace: "menu", key: Self.decomposed + "-1") != nil)
        #expect(
            try fixture.store.admin.preview(.invalidate(.key(namespace: "menu", key: Self.decomposed + "-1"))).entries
                == 1)
        #expect(try cache.invalidate(prefix: Self.decomposed).totalRemoved == 2)
    }

    @Test func anotherProcessWritingTheOtherSpellingReplacesTheEntry() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "menu", key: String.self, value: String.self, policy: .hybrid.expiring(.never))
        try cache.set("mine", for: Self.composed)
        let helper = try HelperProcess(["set", fixture.path, "menu", Self.decomposed, "theirs"])
        let exit = try helper.waitForExit()
        #expect(exit.succeeded, "\(exit.stderr)")
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1)
        try fixture.store.synchronize()
        #expect(try cache.get(Self.composed) == "theirs")
        #expect(try cache.get(Self.decomposed) == "theirs")
    }

    /// A format-5 file holding both spellings: opening it keeps the one written last, under
    /// the composed spelling, with exact counters.
    @Test func migratingAnOlderFileKeepsTheNewerSpellingOfEachKey() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(
            at: path, version: 5,
            """
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'menu', 0, 0);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at)
                VALUES (1, CAST(x'636166C3A9' AS TEXT), CAST('"old"' AS BLOB), 10, 1, 1),
                       (1, CAST(x'63616665CC81' AS TEXT), CAST('"new"' AS BLOB), 11, 2, 2),
                       (1, CAST(x'6E61C3AF7665CC81' AS TEXT), CAST('"x"' AS BLOB), 12, 3, 3);
            """)
        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        let cache = try store.cache("menu", key: String.self, value: String.self, policy: .default.expiring(.never))
        #expect(try cache.get(Self.composed) == "new")
        #expect(try cache.get("na\u{EF}ve\u{301}") == "x")
        #expect(try rawScalar(path: path, "SELECT count(*) FROM entries") == 2)
        #expect(try rawScalar(path: path, "SELECT entry_count FROM namespaces WHERE name = 'menu'") == 2)
        #expect(
            try rawScalar(path: path, "SELECT total_bytes FROM namespaces WHERE name = 'menu'") == 10 + 11,
            "one byte less each")
        let summed = try rawScalar(path: path, "SELECT sum(size) FROM entries")
        #expect(try rawScalar(path: path, "SELECT total_bytes FROM namespaces") == summed)
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
    }
}
