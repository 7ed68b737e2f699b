import Foundation
import Testing

@testable import CacheCore

@Suite struct InspectorFilterTests {
    // MARK: Parsing

    @Test func termsParseWithTheirUnits() throws {
        #expect(
            try EntryFilter(parsing: "size>1KB hits=0 user_").terms == [
                .size(.greater, bytes: 1000), .hits(.equal, 0), .keyContains("user_"),
            ])
        let cases: [(String, EntryFilterTerm)] = [
            ("ttl<60s", .timeToLive(.less, milliseconds: 60_000)),
            ("ttl>1h", .timeToLive(.greater, milliseconds: 3_600_000)),
            ("ttl<=500ms", .timeToLive(.lessOrEqual, milliseconds: 500)),
            ("ttl!=0", .timeToLive(.notEqual, milliseconds: 0)),
            ("ttl<-5m", .timeToLive(.less, milliseconds: -300_000)),
            ("age>1d", .age(.greater, milliseconds: 86_400_000)),
            ("age>=2w", .age(.greaterOrEqual, milliseconds: 1_209_600_000)),
            ("AGE<1.5H", .age(.less, milliseconds: 5_400_000)),
            ("size<=4KiB", .size(.lessOrEqual, bytes: 4096)),
            ("size>=1.5MB", .size(.greaterOrEqual, bytes: 1_500_000)),
            ("size<2GiB", .size(.less, bytes: 2 << 30)),
            ("size=512", .size(.equal, bytes: 512)),
            ("size>1kb", .size(.greater, bytes: 1000)),
            ("size>3mib", .size(.greater, bytes: 3 << 20)),
            ("size<1GB", .size(.less, bytes: 1_000_000_000)),
            ("hits>10", .hits(.greater, 10)),
            ("expired", .expired),
            ("Never", .neverExpires),
            ("prefix:user_", .keyPrefix("user_")),
            ("tag:blue", .tag("blue")),
            ("regex:^u[0-9]+$", .keyMatches("^u[0-9]+$")),
            ("user:42", .keyContains("user:42")),
            ("\"a b\"", .keyContains("a b")),
            ("\"size>1\"", .keyContains("size>1")),
            ("\"never\"", .keyContains("never")),
            ("tag:\"x y\"", .tag("x y")),
            ("\"say \\\"hi\\\" \\\\o/\"", .keyContains("say \"hi\" \\o/")),
            ("regex:\"\\d+ \\w\"", .keyMatches("\\d+ \\w")),
        ]
        for (text, term) in cases {
            #expect(try EntryFilter(parsing: text).terms == [term], "\(text)")
        }
        #expect(try EntryFilter(parsing: "   ").isEmpty)
    }

    @Test func badInputGivesOneClearLine() {
        let cases: [(String, String)] = [
            ("siz>1KB", "unknown field 'siz'"),
            ("ttl<5x", "bad duration '5x'"),
            ("ttl<60", "bad duration '60'"),
            ("age>1.h", "bad duration '1.h'"),
            ("size>1XB", "bad size '1XB'"),
            ("size>-1", "bad size '-1'"),
            ("hits>1.5", "bad count '1.5'"),
            ("hits>-1", "bad count '-1'"),
            ("hits>", "missing value after 'hits>'"),
            (">5", "missing field before '>' in '>5'"),
            ("a!b", "bad operator in 'a!b'"),
            ("\"abc", "unterminated quote in '\"abc'"),
            ("x tag:\"a b", "unterminated quote in 'tag:\"a b'"),
            ("regex:(", "bad regex '('"),
            ("prefix:", "missing value after 'prefix:'"),
            ("ttl<99999999999999999w", "bad duration '99999999999999999w'"),
        ]
        for (text, message) in cases {
            do {
                _ = try EntryFilter(parsing: text)
                Issue.record("'\(text)' parsed")
            } catch {
                #expect(error.description.hasPrefix(message), "\(text)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test func theTextFormParsesBackToTheSameFilter() throws {
        let filters = [
            EntryFilter([
                .keyContains("a b"), .keyContains("size>1"), .keyContains("expired"), .keyContains("prefix:x"),
                .keyContains("q\"uote\\"), .keyContains(""), .keyPrefix("user 1"), .keyMatches("^a\\d\" $"),
                .tag("t\"ag"), .timeToLive(.less, milliseconds: 90_000), .timeToLive(.greater, milliseconds: -1),
                .size(.lessOrEqual, bytes: 4096), .size(.greater, bytes: 1500), .hits(.notEqual, 3),
                .age(.greaterOrEqual, milliseconds: 86_400_000), .expired, .neverExpires,
            ]),
            try EntryFilter(parsing: "size>1KB hits=0 user_ ttl<60s"),
        ]
        for filter in filters {
            #expect(try EntryFilter(parsing: filter.description) == filter, "\(filter)")
        }
        #expect(try EntryFilter(parsing: "SIZE>1kb  ttl<60000ms").description == "size>1KB ttl<1m")
    }

    // MARK: Matching

    /// Five entries whose sizes, hits, ages and expiries each filter tells apart.
    static func fixture() throws -> TestStore {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        try cache.set(Data(count: 4994), for: "admin", expiration: .after(.seconds(86400)))
        fixture.clock.advance(by: .seconds(86400))
        try cache.set(Data(count: 10), for: "user_old", expiration: .never, tags: ["blue", "x"])
        fixture.clock.advance(by: .seconds(2 * 86400))
        try cache.set(Data(count: 2000), for: "user_1", expiration: .after(.seconds(30)))
        try cache.set(Data(count: 10), for: "user_2", expiration: .after(.seconds(7200)), tags: ["x"])
        try cache.set(Data(count: 500), for: "user_3", expiration: .never)
        for key in ["a%b", "a_b", "axb", "'; DROP TABLE entries; --"] { try cache.set(Data(), for: key) }
        try fixture.execute(
            "UPDATE entries SET hits = 5 WHERE key = 'user_2'; UPDATE entries SET hits = 20 WHERE key = 'user_3'")
        return fixture
    }

    @Test(arguments: [
        ("size>1KB", ["admin", "user_1"]),
        ("size>1KB hits=0 user_", ["user_1"]),
        ("size<=16 user", ["user_2"]),
        ("ttl<60s", ["admin", "user_1"]),
        ("ttl<60s ttl>0", ["user_1"]),
        ("ttl>1h", ["a%b", "a_b", "axb", "user_2", "user_3", "user_old", "'; DROP TABLE entries; --"]),
        ("ttl<=0", ["admin"]),
        ("expired", ["admin"]),
        ("never", ["user_3", "user_old"]),
        ("age>1d", ["admin", "user_old"]),
        ("age<1s", ["a%b", "a_b", "axb", "user_1", "user_2", "user_3", "'; DROP TABLE entries; --"]),
        ("hits>10", ["user_3"]),
        ("hits!=0 hits<=5", ["user_2"]),
        ("prefix:user_", ["user_1", "user_2", "user_3", "user_old"]),
        ("prefix:a%", ["a%b"]),
        ("a_b", ["a_b"]),
        ("USER", []),
        ("tag:blue", ["user_old"]),
        ("tag:x", ["user_2", "user_old"]),
        ("regex:^user_[0-9]$", ["user_1", "user_2", "user_3"]),
        ("prefix:user regex:d$", ["user_old"]),
        ("\"'; DROP TABLE entries; --\"", ["'; DROP TABLE entries; --"]),
    ])
    func filtersMatchTheSameEntriesInEveryOrder(filter: String, keys: [String]) throws {
        let fixture = try Self.fixture()
        let inspector = try fixture.inspectionStore().inspector
        for sort in [EntrySort(.key), EntrySort(.size, descending: true), EntrySort(.expires), EntrySort(.hits)] {
            let query = EntryQuery(namespace: "n", sort: sort, filter: try EntryFilter(parsing: filter), limit: 2)
            let found = try inspector.allPages(query).flatMap(\.rows).map(\.key)
            #expect(found.sorted() == keys.sorted(), "\(filter) by \(sort.field)")
        }
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 9)
    }

    @Test func aKeyPrefixNarrowsTheKeyWalkToItsRange() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        try cache.set((0..<500).map { (key: String(format: "k%03d", $0), value: Data()) })
        for descending in [false, true] {
            let page = try fixture.store.inspector.entries(
                EntryQuery(
                    namespace: "n", sort: EntrySort(.key, descending: descending),
                    filter: try EntryFilter(parsing: "prefix:k12"), limit: 100))
            #expect(page.rows.count == 10)
            #expect(page.examinedRows == 10, "only the prefix's range is read")
            #expect(page.next == nil)
        }
    }
}

@Suite struct InspectorCountTests {
    @Test func countsAreExactForEveryKindOfFilterAndMatchWhatAnActionRemoves() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        for index in 0..<3000 {
            try cache.set(
                Data(count: index % 10), for: "k\(index)", expiration: .after(.seconds(index % 3 == 0 ? 10 : 1000)),
                tags: index % 4 == 0 ? ["four"] : [])
        }
        fixture.clock.advance(by: .seconds(10))
        let inspector = fixture.store.inspector
        func count(_ text: String) throws -> EntryCount {
            try inspector.count(namespace: "n", filter: try EntryFilter(parsing: text))
        }
        func expected(_ matches: (Int) -> Bool) -> EntryCount {
            let indices = (0..<3000).filter(matches)
            return EntryCount(
                entries: indices.count, bytes: indices.reduce(0) { $0 + "k\($1)".utf8.count + $1 % 10 })
        }
        #expect(try count("") == expected { _ in true })
        #expect(try count("prefix:k12") == expected { "k\($0)".hasPrefix("k12") })
        #expect(try count("tag:four") == expected { $0 % 4 == 0 })
        #expect(try count("expired") == expected { $0 % 3 == 0 })
        #expect(try count("size>=8") == expected { "k\($0)".utf8.count + $0 % 10 >= 8 })
        #expect(
            try count("regex:^k1.*7$ tag:four") == expected { $0 % 4 == 0 && "k\($0)".hasPrefix("k1") && $0 % 10 == 7 })
        #expect(throws: InspectorError.noSuchNamespace("x")) {
            try inspector.count(namespace: "x", filter: EntryFilter())
        }

        let preview = try fixture.store.admin.preview(.invalidate(.tag("four", namespace: "n")))
        let removed = try fixture.store.admin.run(.invalidate(.tag("four", namespace: "n")))
        #expect(preview.entries == expected { $0 % 4 == 0 }.entries && removed.removed == preview.entries)
        #expect(try count("tag:four") == EntryCount(entries: 0, bytes: 0))
    }

    @Test func keysAreTheOnesACountCountsReadInOneStatement() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        for index in 0..<500 {
            try cache.set(Data(count: index % 10), for: "k\(index)", tags: index % 4 == 0 ? ["four"] : [])
        }
        try fixture.execute(
            "INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at) "
                + "SELECT id, CAST(x'6bff' AS TEXT), x'00', 999, 1, 1 FROM namespaces WHERE name = 'n'")
        let inspector = fixture.store.inspector
        func keys(_ text: String, limit: Int = .max) throws -> Set<String> {
            Set(try inspector.keys(namespace: "n", filter: try EntryFilter(parsing: text), limit: limit))
        }
        #expect(
            try keys("size>=12 size<999")
                == Set((0..<500).filter { "k\($0)".utf8.count + $0 % 10 >= 12 }.map { "k\($0)" }))
        #expect(
            try keys("regex:^k1.*7$ tag:four")
                == Set((0..<500).filter { $0 % 4 == 0 && "k\($0)".hasPrefix("k1") && $0 % 10 == 7 }.map { "k\($0)" }))
        let shown = try inspector.entries(EntryQuery(namespace: "n", filter: try EntryFilter(parsing: "size>=999")))
        #expect(try keys("size>=999") == Set(shown.rows.map(\.key)) && shown.rows.count == 1, "as the rows show it")
        #expect(try keys("", limit: 7).count == 7)
        #expect(throws: InspectorError.noSuchNamespace("x")) {
            try inspector.keys(namespace: "x", filter: EntryFilter(), limit: 1)
        }
        let marked = try inspector.keys(namespace: "n", filter: try EntryFilter(parsing: "size>=999"), limit: 10)
        let removed = try fixture.store.admin.run(.invalidate(.keys(namespace: "n", keys: marked)))
        #expect(removed.removed == 1, "the escaped key selects the entry it names")
    }
}
