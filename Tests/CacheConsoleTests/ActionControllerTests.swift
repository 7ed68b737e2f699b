import CacheConsole
import TerminalUI
import CacheCore
import Foundation
import Testing

@Suite struct ActionControllerTests {
    private func store() throws -> (CacheStore, String) {
        let folder = NSTemporaryDirectory() + "cachedeck-console-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try CacheStore(path: folder + "/cache.sqlite")
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        for index in 0..<30 { try tiles.set("tile \(index)", for: "t\(index)", tags: index < 3 ? ["hot"] : []) }
        return (store, folder)
    }

    @Test func theDefaultAnswerIsNoAndClearingAsksForTheName() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let controller = ActionController(store: store)

        let clear = try controller.prepare(.clear(namespace: "tiles"))
        #expect(clear.confirmation == .typeName("tiles"))
        #expect(clear.prompt.hasPrefix("Clear tiles: 30 entries,"))
        for answer in ["", "y", "yes", "Tiles", "tile"] { #expect(try controller.run(clear, answer: answer) == nil) }
        #expect(try store.admin.preview(.clearAll).entries == 30)

        let tag = try controller.prepare(.invalidate(.tag("hot", namespace: "tiles")))
        #expect(tag.confirmation == .yesOrNo && tag.prompt.hasSuffix("Proceed? [y/N]"))
        #expect(try controller.run(tag, answer: "") == nil)
        #expect(try controller.run(tag, answer: "n") == nil)
        let result = try #require(try controller.run(tag, answer: " Y "))
        #expect(result.outcome.removed == 3)
        #expect(try controller.prepare(.clearAll).confirmation == .typeName("all"))

        let undo = try #require(result.undo)
        #expect(try controller.undo(undo) == UndoOutcome(restored: 3, removed: 3))
        #expect(try store.admin.preview(.clearAll).entries == 30)
    }

    @Test func anUndoSaysWhatDidNotComeBackAndWhy() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let controller = ActionController(store: store)
        let pending = try controller.prepare(.invalidate(.tag("hot", namespace: "tiles")))
        let undo = try #require(try controller.run(pending, answer: "y")?.undo)
        try store.cache("tiles", key: String.self, value: String.self).set("newer", for: "t1")
        let outcome = try controller.undo(undo)
        #expect(outcome == UndoOutcome(restored: 2, removed: 3))
        #expect(
            outcome.sentence(auditID: undo.auditID)
                == "Restored 2 of 3 entries of action #\(undo.auditID); the other 1 was written again or removed "
                + "since and stays as it is.")
        #expect(try store.cache("tiles", key: String.self, value: String.self).get("t1") == "newer")
        #expect(UndoOutcome(restored: 1, removed: 1).sentence(auditID: 4) == "Restored 1 entry of action #4.")
        #expect(
            UndoOutcome(restored: 2, removed: 3, isKeyDeletion: true).sentence(auditID: 7)
                .hasPrefix("Restored 2 of 3 keys of deletion #7; the other 1 was written again"))
        #expect(UndoOutcome(restored: 1, removed: 1, isKeyDeletion: true).sentence(auditID: 7) == "Restored 1 key of deletion #7.")
        #expect(UndoOutcome(restored: 5, removed: nil).sentence(auditID: 4) == "Restored 5 entries of action #4.")
    }

    @Test func theTargetIsCapturedWhenTheQuestionIsAsked() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let controller = ActionController(store: store)
        var selection = ["t1", "t2"]
        let pending = try controller.prepare(.invalidate(.keys(namespace: "tiles", keys: selection)))
        selection.append("t3")
        let result = try #require(try controller.run(pending, answer: "y"))
        #expect(result.outcome.removed == 2 && selection.count == 3)
        #expect(try store.cache("tiles", key: String.self, value: String.self).get("t3") == "tile 3")
    }

    @Test func aReadOnlyStoreRefusesBeforeAsking() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = try CacheStore(path: store.path, options: .inspection())
        #expect(throws: CacheError.readOnly(path: store.path)) {
            try ActionController(store: reader).prepare(.sweep(namespace: nil))
        }
    }

    @Test func sweepsHaveNoUndo() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try ActionController(store: store).run(
            confirmed: try ActionController(store: store).prepare(.sweep(namespace: "tiles")))
        #expect(result.undo == nil && result.outcome.removed == 0)
    }

    @Test func numbersReadWell() {
        #expect(Formatting.count(2_500_000) == "2,500,000")
        #expect(Formatting.bytes(999) == "999 B")
        #expect(Formatting.bytes(1_250_000) == "1.2 MB")
    }
}
