@testable import CacheConsole
import CacheCoreRedis
import Foundation
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
