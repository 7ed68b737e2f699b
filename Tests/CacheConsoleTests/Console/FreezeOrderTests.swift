@testable import CacheConsole
@testable import CacheCoreRedis
import Foundation
import TerminalUI
import Testing

/// Issue 25: `F` freezes the order of the Audit and keyspace views too, as in the Overview and
/// the Entries: rows stay where they are while their figures update, new rows go last.
@Suite struct FreezeOrderTests {
    private func ids(_ harness: ConsoleHarness<FakeDataSource>) -> [Int64]? {
        (harness.model.current.view as? AuditView)?.entries?.map(\.id)
    }

    @Test func aFrozenAuditLogKeepsItsRowsAndPutsNewActionsLast() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter, .character("d"), .character("y"), .down, .character("d"), .character("y"))
        harness.press(.character("4"), .down)
        #expect(ids(harness) == [2, 1])
        harness.press(.character("F"))
        #expect(harness.screen().contains("order frozen (F)"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("Restored 1 entry of action #1."))
        #expect(ids(harness) == [2, 1, 3], "the restore goes last while frozen")
        let view = harness.model.current.view as? AuditView
        #expect(view?.selection == 1 && view?.entries?[1].isUndone == true, "the cursor stays on #1, in its place")
        harness.press(.character("F"))
        #expect(ids(harness) == [3, 2, 1], "newest first again")
        #expect((harness.model.current.view as? AuditView)?.selected?.id == 1)
    }

    @Test func aFrozenKeyspaceLevelKeepsItsOrderWhenTheScanEnds() {
        func key(_ name: String, bytes: Int) -> KeyspaceNode {
            KeyspaceNode(
                kind: .key, name: Data(name.utf8), nameText: name, path: Data(name.utf8), keys: KeyspaceAmount(1),
                bytes: KeyspaceAmount(bytes), type: RedisKeyType(rawValue: "string"), expiresAt: nil)
        }
        func level(_ children: [KeyspaceNode]) -> KeyspaceSnapshot {
            KeyspaceSnapshot(
                server: RedisServerInfo(
                    endpoint: "e", database: 0, version: "7", role: "master", usedMemory: 0, maxMemory: 0,
                    maxMemoryPolicy: "noeviction", keyCount: 3),
                level: KeyspaceLevel(
                    prefix: Data(), prefixText: "", separator: ":", children: children, childCount: children.count,
                    keys: KeyspaceAmount(children.count), bytes: KeyspaceAmount(60), unlistedKeys: 0,
                    scan: KeyspaceScanProgress(
                        keysFound: children.count, keysInDatabase: children.count, batches: 1, isMatchScan: false,
                        isComplete: true)))
        }
        let model = ConsoleModel(
            location: "redis", isReadOnly: true, isKeyspace: true, themeName: "default", refreshInterval: .seconds(1),
            now: 0)
        var context = ViewContext(viewID: 0, size: Size(columns: 100, rows: 30), model: model, settings: ConsoleSettings())
        let read = KeyspaceRead(KeyspaceRequest(prefix: Data()))
        var view = KeyspaceView(prefix: Data())
        _ = view.apply(level([key("a", bytes: 30), key("b", bytes: 20), key("c", bytes: 10)]), for: read, in: &context)
        _ = view.handle(.moveDown, in: &context)
        view.freeze(true, in: context)
        // c grew past the others and d appeared: a complete scan would rank them anew.
        let grown = [key("c", bytes: 90), key("d", bytes: 50), key("a", bytes: 30), key("b", bytes: 20)]
        _ = view.apply(level(grown), for: read, in: &context)
        #expect(view.children.map(\.nameText) == ["a", "b", "c", "d"])
        #expect(view.children.map(\.bytes.value) == [30, 20, 90, 50], "figures update in place")
        #expect(view.children[view.selection].nameText == "b")
        view.freeze(false, in: context)
        _ = view.apply(level(grown), for: read, in: &context)
        #expect(view.children.map(\.nameText) == ["c", "d", "a", "b"])
        #expect(view.children[view.selection].nameText == "b")
    }
}
