import Foundation

/// The names of the keys a keyspace deletion keeps its undo in (docs/REDIS.md, "Deleting
/// keys"): all start with `<prefix>keytrash:`, which a deletion never selects.
///
/// A deleted key's copy goes to a trash hash in the key's own slot (`{<tag>}` is a hash tag
/// chosen to hash to that slot), so one script moves it on a cluster; the log of deletions
/// shares the tag `{%log}`. What a deletion moved into a slot's trash is counted in a ledger
/// in the same slot, by the same script.
struct KeyTrashKeys: Sendable {
    /// What every one of these keys starts with.
    let root: String

    init(prefix: String) { root = prefix + "keytrash:" }

    /// The counter deletion ids came from before they came from the store's audit sequence.
    var sequence: String { root + "{%log}seq" }
    /// Deletion ids scored by when they started (ms).
    var index: String { root + "{%log}index" }
    /// The record of deletion `id`.
    func record(_ id: Int64) -> String { root + "{%log}record:\(id)" }
    /// The trash hash of deletion `id` for the keys of `slot` (one hash on one server: `slot` 0).
    func trash(_ id: Int64, slot: Int) -> String { root + "{" + Self.slotTags[slot] + "}:\(id)" }
    /// What deletion `id` moved into ``trash(_:slot:)`` (`entries`, `bytes`), written by the
    /// script that moves the keys.
    func ledger(_ id: Int64, slot: Int) -> String { root + "{" + Self.slotTags[slot] + "}ledger:\(id)" }
    /// The slots deletion `id` has moved keys in, or was about to (each added before its batch).
    func slots(_ id: Int64) -> String { root + "{%log}slots:\(id)" }
    /// A `SCAN MATCH` pattern for every trash hash of deletion `id`.
    func trashPattern(_ id: Int64) -> String { RedisKeys.glob(root) + "{*}:\(id)" }

    /// For each slot, the shortest decimal text that hashes to it.
    static let slotTags: [String] = {
        var tags = [String?](repeating: nil, count: ClusterSlot.count)
        var missing = ClusterSlot.count
        var number = 0
        while missing > 0 {
            let text = String(number)
            let slot = ClusterSlot.of(Data(text.utf8))
            if tags[slot] == nil {
                tags[slot] = text
                missing -= 1
            }
            number += 1
        }
        return tags.map { $0 ?? "" }
    }()
}
