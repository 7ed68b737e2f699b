@testable import CacheConsole
@testable import CacheCoreRedis
import Foundation
import TerminalUI
import Testing

/// While the keyspace scan runs, rows keep their places under the cursor as sizes grow.
@Suite("Keyspace rows keep their order while scanning")
struct KeyspaceOrderTests {
    /// A prefix row, decoded from the JSON shape `cachedeck keys --json` documents.
    func node(_ name: String, bytes: Int) throws -> KeyspaceNode {
        let path = Data(name.utf8).base64EncodedString()
        let json = """
            {"kind": "prefix", "name": "\(path)", "nameText": "\(name)", "path": "\(path)",
             "keys": {"value": 1, "isLowerBound": true, "isSampled": false},
             "bytes": {"value": \(bytes), "isLowerBound": true, "isSampled": false}}
            """
        return try JSONDecoder().decode(KeyspaceNode.self, from: Data(json.utf8))
    }

    @Test func knownRowsKeepTheirPlacesAndNewOnesFollow() throws {
        let shown = [try node("a:", bytes: 30), try node("b:", bytes: 20), try node("c:", bytes: 10)]
        // The next answer ranks them anew (c grew past a), drops b (cut by the limit), adds d.
        let next = [try node("c:", bytes: 50), try node("d:", bytes: 40), try node("a:", bytes: 35)]
        let kept = KeyspaceView.keepingOrder(of: shown, next)
        #expect(kept.map(\.nameText) == ["a:", "c:", "d:"])
        #expect(kept.map(\.bytes.value) == [35, 50, 40])
    }
}

/// Sorting and searching a keyspace level: the rows loaded, the cursor on its row.
@Suite("Keyspace sort and search")
struct KeyspaceSortTests {
    func key(_ name: String, bytes: Int, type: String, expiresAt: Int64?) -> KeyspaceNode {
        KeyspaceNode(
            kind: .key, name: Data(name.utf8), nameText: name, path: Data(name.utf8), keys: KeyspaceAmount(1),
            bytes: KeyspaceAmount(bytes), type: RedisKeyType(rawValue: type), expiresAt: expiresAt)
    }

    var rows: [KeyspaceNode] {
        [
            key("b", bytes: 30, type: "string", expiresAt: nil),
            key("a", bytes: 10, type: "zset", expiresAt: 5000),
            KeyspaceNode(
                kind: .prefix, name: Data("p:".utf8), nameText: "p:", path: Data("p:".utf8), keys: KeyspaceAmount(2),
                bytes: KeyspaceAmount(20), type: nil, expiresAt: nil),
            key("c", bytes: 20, type: "hash", expiresAt: 1000),
        ]
    }

    @Test func eachOrderSortsTheRowsWithTiesByName() {
        func names(_ order: KeyspaceOrder, reversed: Bool = false) -> [String] {
            order.sorted(rows, reversed: reversed).map(\.nameText)
        }
        #expect(names(.memory) == ["b", "c", "p:", "a"])
        #expect(names(.name) == ["a", "b", "c", "p:"] && names(.name, reversed: true) == ["p:", "c", "b", "a"])
        #expect(names(.ttl) == ["c", "a", "b", "p:"])
        #expect(names(.type) == ["p:", "c", "b", "a"])
        #expect(KeyspaceOrder.allCases.map(\.next) == [.name, .ttl, .type, .memory])
    }

    @Test func searchesMatchTextOrGlobs() {
        func match(_ pattern: String, _ name: String) -> Bool { KeyspaceSearch(text: pattern).matches(name) }
        #expect(match("ART", "user:cart") && !match("cart", "user:car"))
        #expect(match("user:*:cart", "user:12:cart") && !match("user:*:cart", "user:12:carts"))
        #expect(match("u??r", "user") && !match("u??r", "usr"))
        #expect(match("[a-c]*", "bob") && !match("[^a-c]*", "bob") && match("[z-a]x", "mx") && !match("[a-c]", "[a-c]"))
        #expect(match("a\\*", "a*") && !match("a\\*", "ab"))
        #expect(match("*a*a*a*a*b", String(repeating: "a", count: 40) + "b"))
    }

    @Test func sortingAndSearchingKeepTheCursorOnItsRow() throws {
        var view = KeyspaceView(prefix: Data())
        let level = KeyspaceLevel(
            prefix: Data(), prefixText: "", separator: ":", children: rows, childCount: 4, keys: KeyspaceAmount(5),
            bytes: KeyspaceAmount(80), unlistedKeys: 0,
            scan: KeyspaceScanProgress(keysFound: 5, keysInDatabase: 9, batches: 1, isMatchScan: false, isComplete: false))
        let server = RedisServerInfo(
            endpoint: "e", database: 0, version: "7", role: "master", usedMemory: 0, maxMemory: 0,
            maxMemoryPolicy: "noeviction", keyCount: 9)
        let model = ConsoleModel(
            location: "redis", isReadOnly: true, isKeyspace: true, themeName: "default", refreshInterval: .seconds(1),
            now: 0)
        var context = ViewContext(
            viewID: 0, size: Size(columns: 100, rows: 30), model: model, settings: ConsoleSettings())
        _ = view.apply(KeyspaceSnapshot(server: server, level: level), for: KeyspaceRead(KeyspaceRequest(prefix: Data())), in: &context)
        _ = view.handle(.moveDown, in: &context)
        #expect(view.children[view.selection].nameText == "a")
        _ = view.handle(.sortNext, in: &context)
        #expect(view.order == .name && view.children.map(\.nameText) == ["a", "b", "c", "p:"])
        #expect(view.children[view.selection].nameText == "a")
        // The scan goes on: a row grows, a new one comes; the rows keep their places.
        var next = level
        next.children = [key("d", bytes: 99, type: "string", expiresAt: nil)] + rows.map { row in
            var row = row
            if row.nameText == "c" { row.bytes = KeyspaceAmount(70) }
            return row
        }
        _ = view.apply(KeyspaceSnapshot(server: server, level: next), for: KeyspaceRead(KeyspaceRequest(prefix: Data())), in: &context)
        #expect(view.children.map(\.nameText) == ["a", "b", "c", "p:", "d"] && view.children[view.selection].nameText == "a")
        // Once the scan ends, the whole level is in the order chosen.
        next.scan.isComplete = true
        _ = view.apply(KeyspaceSnapshot(server: server, level: next), for: KeyspaceRead(KeyspaceRequest(prefix: Data())), in: &context)
        #expect(view.children.map(\.nameText) == ["a", "b", "c", "d", "p:"] && view.children[view.selection].nameText == "a")
        view.applySearch("[ab]")
        #expect(view.children.map(\.nameText) == ["a", "b"] && view.children[view.selection].nameText == "a")
        view.applySearch("b")
        #expect(view.children.map(\.nameText) == ["b"] && view.selection == 0)
    }
}
