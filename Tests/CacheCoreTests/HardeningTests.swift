import CacheDeckTestSupport
import Foundation
import PropertyBased
import Testing

@testable import CacheCore

/// Issue 15: hostile numbers in the file, tampered cursors, runaway regular expressions,
/// unknown namespaces, one entry with very many tags, and symlinks planted at the path.
@Suite struct HardeningTests {
    /// A store with a few entries, a client row and telemetry, closed.
    static func fixture() throws -> TestStore {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        let cache = try fixture.store.cache("n", key: String.self, value: String.self)
        for index in 0..<5 {
            try cache.set("v\(index)", for: "k\(index)", expiration: .after(.seconds(60)), tags: ["t"])
        }
        _ = try cache.get("k1")
        _ = try cache.get("missing")
        try fixture.store.flushTelemetry()
        return fixture
    }

    /// Columns at the limits of `Int64`, as a tampered file may hold them.
    static let hostileColumns: [(table: String, column: String)] = [
        ("entries", "created_at"), ("entries", "expires_at"), ("entries", "stale_until"), ("entries", "accessed_at"),
        ("entries", "size"), ("entries", "hits"), ("namespaces", "entry_count"), ("namespaces", "total_bytes"),
        ("clients", "started_at"), ("clients", "last_seen"), ("clients", "heartbeat_interval"),
        ("clients", "stopped_at"), ("stats", "memory_hits"), ("stats", "disk_hits"), ("stats", "misses"),
        ("stats", "sets"), ("stats", "evicted_bytes"), ("stats", "load_time"),
    ]

    @Test(arguments: hostileColumns, [Int64.max, Int64.min])
    func numbersAtTheLimitsNeverTrapAReader(_ target: (table: String, column: String), _ value: Int64) throws {
        let fixture = try Self.fixture()
        try fixture.execute("UPDATE \(target.table) SET \(target.column) = \(value)")
        let store = try fixture.inspectionStore()
        let inspector = store.inspector
        // Every call either answers or throws a one-line error; none traps.
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch { #expect(!"\(error)".contains("\n")) }
        }
        attempt { _ = try inspector.summary() }
        attempt { _ = try inspector.namespaces() }
        attempt { _ = try inspector.expiryTimeline() }
        attempt { _ = try inspector.processes() }
        attempt { _ = try inspector.activity(last: .seconds(3600)) }
        attempt { _ = try store.clients() }
        attempt { _ = try store.telemetry(since: Date(timeIntervalSince1970: 0)) }
        for field in EntrySortField.allCases {
            attempt { _ = try inspector.allPages(EntryQuery(namespace: "n", sort: EntrySort(field), limit: 2)) }
        }
        attempt { _ = try inspector.entry(namespace: "n", key: "k1") }
        let report = try store.admin.check()
        #expect(report.outOfRangeRows.contains { $0.hasPrefix(target.table) && $0.contains(target.column) })
    }

    @Test func checkNamesEachRowOutOfRange() throws {
        let fixture = try Self.fixture()
        try fixture.execute("UPDATE entries SET size = \(Int64.max), created_at = -1 WHERE key = 'k2'")
        let id = try #require(try fixture.scalar("SELECT id FROM entries WHERE key = 'k2'"))
        let report = try fixture.store.admin.check()
        // The counter trigger's sum overflowed into the namespace's total too.
        #expect(report.outOfRangeRows.first == "entries \(id): created_at -1, size \(Int64.max)")
        #expect(report.outOfRangeRows.dropFirst().allSatisfy { $0.hasPrefix("namespaces 'n': total_bytes") })
        #expect(!report.isHealthy)
    }

    @Test func saturatingArithmeticStopsAtTheBounds() {
        #expect(Int64.max.addingClamped(1) == .max)
        #expect(Int64.min.subtractingClamped(1) == .min)
        #expect(Int64.max.multipliedClamped(by: -2) == .min)
        #expect(
            Int64(saturating: 1e30) == .max && Int64(saturating: -1e30) == .min && Int64(saturating: Double.nan) == 0)
        #expect([Int.max, 5].clampedSum() == .max)
    }

    // MARK: Cursors

    /// Cursor JSON with each field out of its range: a segment the order lacks, too few or too
    /// many values, a value of the wrong type.
    static let tamperedCursors = [
        #"{"namespace":"n","sort":{"field":"key","descending":false},"segment":-1,"values":[{"text":{"_0":""}}],"id":1}"#,
        #"{"namespace":"n","sort":{"field":"key","descending":false},"segment":5,"values":[{"text":{"_0":""}}],"id":1}"#,
        #"{"namespace":"n","sort":{"field":"key","descending":false},"segment":0,"values":[],"id":1}"#,
        #"{"namespace":"n","sort":{"field":"expires","descending":false},"segment":0,"values":[{"integer":{"_0":1}}],"id":1}"#,
        #"{"namespace":"n","sort":{"field":"size","descending":false},"segment":0,"values":[{"text":{"_0":""}}],"id":1}"#,
        #"{"namespace":"n","sort":{"field":"size","descending":false},"segment":0,"values":[{"null":{}}],"id":1}"#,
    ]

    @Test(arguments: tamperedCursors)
    func tamperedCursorTokensThrowInsteadOfTrapping(_ json: String) throws {
        let token = Data(json.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(throws: InspectorError.invalidCursor) { try EntryCursor(token: token) }
    }

    @Test func randomCursorTokensDecodeOrThrowOneError() async {
        await propertyCheck(count: 500, input: Gen.ascii.string(of: 0...120)) { text in
            do {
                let cursor = try EntryCursor(token: text)
                #expect(cursor.isWellFormed)
            } catch {
                #expect(error as? InspectorError == .invalidCursor)
            }
        }
    }

    @Test func randomJSONCursorsAreWellFormedOrRefused() async throws {
        let fixture = try Self.fixture()
        let inspector = try fixture.inspectionStore().inspector
        let fields = EntrySortField.allCases
        let values = [#"{"integer":{"_0":7}}"#, #"{"null":{}}"#, #"{"text":{"_0":"a2V5"}}"#]
        let input = Gen.int(in: 0...(fields.count - 1))
        let segments = Gen.int(in: -3...3)
        let kinds = Gen.int(in: 0...2).array(of: 0...3)
        let ids = Gen.int64(in: .min ... .max)
        await propertyCheck(count: 300, input: input, segments, kinds, ids) {
            fieldIndex, segment, kinds, id in
            let field = fields[fieldIndex]
            let listed: [String] = kinds.map { values[$0] }
            let json =
                #"{"namespace":"n","sort":{"field":"\#(field.rawValue)","descending":false},"segment":\#(segment),"#
                + #""values":[\#(listed.joined(separator: ","))],"id":\#(id)}"#
            let token = Data(json.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            guard let cursor = try? EntryCursor(token: token) else { return }
            _ = try? inspector.entries(EntryQuery(namespace: "n", sort: EntrySort(field), limit: 3, after: cursor))
        }
    }

    // MARK: Filters

    @Test func aRunawayRegexGivesUpWithOneLine() throws {
        let fixture = try Self.fixture()
        let cache = try fixture.store.cache("n", key: String.self, value: String.self)
        try cache.set("x", for: String(repeating: "a", count: 60) + "!")
        let inspector = try fixture.inspectionStore().inspector
        let started = ContinuousClock.now
        for sort in [EntrySortField.key, .size] {
            let query = EntryQuery(
                namespace: "n", sort: EntrySort(sort), filter: try EntryFilter(parsing: "regex:(a|a)+$"))
            #expect {
                try inspector.entries(query)
            } throws: { error in
                "\(error)".contains("gave up after") && !"\(error)".contains("\n")
            }
        }
        #expect {
            try inspector.count(namespace: "n", filter: try EntryFilter(parsing: "regex:(a|a)+$"))
        } throws: { error in
            "\(error)".contains("gave up after")
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func randomFilterTextParsesOrThrowsOneLine() async throws {
        let fixture = try Self.fixture()
        let inspector = try fixture.inspectionStore().inspector
        let vocabulary = [
            "regex:", "(a|a)+$", "size>", "ttl<", "hits=", "tag:", "\"", "\\", "1k", "-5", "(", ")", "*", "+", "[",
            " ", "k", "age>1h", "99999999999999999999", "\u{1B}", "é", "prefix:", ":",
        ]
        let pieces = Gen.int(in: 0...(vocabulary.count - 1)).map { vocabulary[$0] }
        await propertyCheck(count: 400, input: pieces.array(of: 0...8)) { parts in
            let text = parts.joined()
            do {
                let filter = try EntryFilter(parsing: text)
                let started = ContinuousClock.now
                do {
                    _ = try inspector.entries(EntryQuery(namespace: "n", filter: filter, limit: 5))
                } catch let error as EntryFilterError {
                    #expect(!error.description.contains("\n"))
                }
                #expect(ContinuousClock.now - started < KeyMatcher.perRequestLimit + .seconds(3))
            } catch {
                #expect(!"\(error)".contains("\n") && !"\(error)".isEmpty)
            }
        }
    }

    // MARK: Actions

    @Test func actionsOnAnUnknownNamespaceFailAndAuditNothing() throws {
        let fixture = try Self.fixture()
        let admin = fixture.store.admin
        let audits = try fixture.scalar("SELECT count(*) FROM audit")
        for target: AdminTarget in [
            .clear(namespace: "nn"), .sweep(namespace: "nn"), .invalidate(.key(namespace: "nn", key: "k1")),
            .invalidate(.tag("t", namespace: "nn")),
        ] {
            #expect(throws: InspectorError.noSuchNamespace("nn")) { try admin.preview(target) }
            #expect(throws: InspectorError.noSuchNamespace("nn")) { try admin.run(target) }
        }
        #expect(try fixture.scalar("SELECT count(*) FROM audit") == audits)
        #expect(try admin.run(.invalidate(.tag("t", namespace: nil))).removed == 5)
    }

    // MARK: Tags

    @Test func checkIsLinearInTheTagsOfOneEntry() throws {
        let fixture = try Self.fixture()
        try fixture.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            UPDATE entries SET tags = (SELECT json_group_array('t' || i) FROM n) WHERE key = 'k0';
            INSERT INTO entry_tags (tag, entry_id) SELECT 'stray', id FROM entries WHERE key = 'k1';
            """)
        let started = ContinuousClock.now
        let report = try fixture.store.admin.check(.quick)
        #expect(report.extraTagRows == 1 && report.missingTagRows == 0)
        #expect(try fixture.store.admin.repair().tagRowsRemoved == 1)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    // MARK: Files

    @Test func aDanglingSymlinkAtThePathIsNotFollowed() throws {
        let folder = TemporaryFolder()
        let target = folder.file("elsewhere.sqlite")
        try FileManager.default.createSymbolicLink(atPath: folder.file(), withDestinationPath: target)
        #expect(
            throws: CacheError.cannotOpen(
                path: folder.file(), reason: "it is a symbolic link to a missing file (not followed)")
        ) {
            try CacheStore(path: folder.file())
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}

/// Issue 15, class 6: a damaged root page no longer locks the app out.
@Suite struct DamagedPageTests {
    /// A closed cache with 50 entries in `n` (and telemetry), checkpointed into the file.
    static func damagedFixture(_ name: String) throws -> (TemporaryFolder, String) {
        let folder = TemporaryFolder()
        let path = folder.file()
        do {
            var options = StoreOptions()
            options.statistics.telemetryInterval = .seconds(3600)
            let store = try CacheStore(path: path, options: options)
            let cache = try store.cache("n", key: Int.self, value: String.self)
            for index in 0..<50 { try cache.set("value \(index)", for: index) }
            try store.flushTelemetry()
            try store.close()
        }
        try rawExecute(path: path, "PRAGMA wal_checkpoint(TRUNCATE)")
        try DamagedPage.damageRoot(of: name, in: path)
        return (folder, path)
    }

    @Test(arguments: ["entries_by_expiry", "entry_tags_by_entry", "stats", "entry_tags"])
    func anAppOpeningADamagedFileSalvagesEveryReadableEntry(_ name: String) throws {
        let (folder, path) = try Self.damagedFixture(name)
        let store = try CacheStore(path: path)
        let moved = try #require(store.quarantinedFile)
        #expect(moved.salvagedEntries == 50 && moved.reason.contains(name))
        #expect(FileManager.default.fileExists(atPath: moved.movedTo))
        let cache = try store.cache("n", key: Int.self, value: String.self)
        #expect(try cache.get(7) == "value 7")
        try cache.set("new", for: 99)
        #expect(try store.admin.check().isHealthy)
        _ = folder
    }

    @Test(arguments: ["namespaces", "entries"])
    func aDamagedTableLosesItsRowsButTheAppCarriesOn(_ name: String) throws {
        let (folder, path) = try Self.damagedFixture(name)
        let store = try CacheStore(path: path)
        #expect(store.quarantinedFile?.salvagedEntries == 0)
        let cache = try store.cache("n", key: Int.self, value: String.self)
        try cache.set("new", for: 1)
        #expect(try cache.get(1) == "new")
        _ = folder
    }

    @Test func damageAStoreMeetsWhileRunningIsSalvagedAtTheNextOpen() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        do {
            let store = try CacheStore(path: path)
            let cache = try store.cache("n", key: Int.self, value: String.self)
            for index in 0..<2000 { try cache.set(String(repeating: "v", count: 100) + "\(index)", for: index) }
            try store.close()
        }
        try rawExecute(path: path, "PRAGMA wal_checkpoint(TRUNCATE)")
        try DamagedPage.damageLeaf(of: "entries", in: path)
        let app = try CacheStore(path: path)
        #expect(app.quarantinedFile == nil, "the root pages are intact")
        #expect {
            _ = try app.inspector.allPages(EntryQuery(namespace: "n", limit: 1000))
        } throws: { error in
            error as? CacheError == .damaged(path: path, reason: "database disk image is malformed")
        }
        try app.close()
        let reopened = try CacheStore(path: path)
        let moved = try #require(reopened.quarantinedFile)
        #expect(moved.reason == "damaged pages a store met while using it")
        #expect((1..<2000).contains(moved.salvagedEntries ?? 0))
        #expect(try reopened.admin.check().isHealthy)
        #expect(!FileManager.default.fileExists(atPath: path + "-damaged"))
        _ = folder
    }

    @Test func inspectionReportsTheDamageAndSalvageOnDemandFixesIt() throws {
        let (folder, path) = try Self.damagedFixture("entries_by_expiry")
        let inspection = try CacheStore(path: path, options: .inspection())
        #expect(throws: CacheError.damaged(path: path, reason: "database disk image is malformed")) {
            try inspection.inspector.expiryTimeline()
        }
        let report = try inspection.admin.check()
        #expect(report.sqliteProblems.contains { $0.contains("Page") } && !report.isHealthy)
        try inspection.close()
        let moved = try CacheStore.salvage(path: path)
        #expect(moved.salvagedEntries == 50)
        #expect(try CacheStore(path: path, options: .inspection()).admin.check().isHealthy)
        _ = folder
    }
}

/// Issue 15, class 8: files another user planted or may write.
@Suite struct FileTrustTests {
    /// A closed cache of one entry in a fresh folder, checkpointed (no `-wal` content).
    static func cache() throws -> (TemporaryFolder, String) {
        let folder = TemporaryFolder()
        do {
            let store = try CacheStore(path: folder.file())
            try store.cache("n", key: Int.self, value: String.self).set("one", for: 1)
            try store.close()
        }
        return (folder, folder.file())
    }

    @Test func anAppRefusesAFileOthersMayWriteAndOperatorsToo() throws {
        let (folder, path) = try Self.cache()
        chmod(path, 0o666)
        let reason = "it is writable by every user (mode 666), so anyone could have changed what it holds"
        #expect(throws: CacheError.untrusted(path: path, reason: reason)) { try CacheStore(path: path) }
        #expect(throws: CacheError.untrusted(path: path, reason: reason)) {
            try CacheStore(path: path, options: .inspection())
        }
        var trusting = StoreOptions.inspection()
        trusting.fileTrust = .any
        #expect(try CacheStore(path: path, options: trusting).inspector.namespaces().count == 1)
        _ = folder
    }

    @Test func aSymlinkedWALIsRefusedWithItsReason() throws {
        let (folder, path) = try Self.cache()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try FileManager.default.createSymbolicLink(atPath: path + "-wal", withDestinationPath: folder.file("x"))
        for options in [StoreOptions(), .inspection()] {
            #expect(throws: CacheError.untrusted(path: path, reason: "its -wal is a symbolic link")) {
                try CacheStore(path: path, options: options)
            }
        }
        _ = folder
    }

    @Test(.enabled(if: Unprivileged.isRoot, "only root can give a file to another user"))
    func anAppRefusesAFileOrWALAnotherUserOwnsWhileOperatorsOpenItAndSayWhose() throws {
        let (folder, path) = try Self.cache()
        let nobody = Unprivileged.user
        #expect(chown(path, nobody, nobody) == 0)
        let planted = "it belongs to \(FileTrust.userName(nobody)), not to you (another user could have planted it)"
        #expect(throws: CacheError.untrusted(path: path, reason: planted)) { try CacheStore(path: path) }
        let inspection = try CacheStore(path: path, options: .inspection())
        #expect(inspection.fileOwner == FileTrust.userName(nobody))
        try inspection.close()
        #expect(chown(path, 0, 0) == 0)
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(), attributes: nil))
        #expect(chown(path + "-wal", nobody, nobody) == 0)
        let wal = "its -wal belongs to \(FileTrust.userName(nobody)), not to you (another user could have planted it)"
        #expect(throws: CacheError.untrusted(path: path, reason: wal)) { try CacheStore(path: path) }
        _ = folder
    }
}

/// Issue 15, class 4: keys that are not valid UTF-8 print as text that finds them again.
@Suite struct PrintableKeyTests {
    @Test func anyBytesRoundTripThroughTheirPrintableText() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...255).array(of: 0...12)) { values in
            let bytes = Data(values.map(UInt8.init))
            let text = PrintableKey.text(bytes)
            if let valid = String(validating: bytes, as: UTF8.self) {
                #expect(text == valid)
            } else {
                #expect(PrintableKey.bytes(text) == bytes)
                #expect(!text.contains("\u{FFFD}"))
            }
        }
    }

    @Test func invalidatingByThePrintedKeyRemovesThatEntry() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: String.self)
        try cache.set("x", for: "a")
        try cache.set("y", for: "b")
        try fixture.execute("UPDATE entries SET key = CAST(x'61ff5c' AS TEXT) WHERE key = 'a'")
        let row = try #require(try fixture.store.inspector.entries(EntryQuery(namespace: "n")).rows.first)
        #expect(row.key == "a\\xff\\\\")
        #expect(try fixture.store.admin.run(.invalidate(.key(namespace: "n", key: row.key))).removed == 1)
        try fixture.execute("UPDATE entries SET key = CAST(x'62fe' AS TEXT) WHERE key = 'b'")
        #expect(try fixture.store.admin.run(.invalidate(.keys(namespace: "n", keys: ["b\\xfe", "zz"]))).removed == 1)
    }
}
