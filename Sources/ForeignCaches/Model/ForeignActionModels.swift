import CacheCore

/// Which entries of a namespace an action removes.
package enum ForeignSelection: Sendable, Hashable {
    /// Every expired entry.
    case expired
    /// The entries with these keys (as listings print them).
    case keys([String])
    /// Every entry the filter matches (`prefix:P` deletes by prefix).
    case filter(EntryFilter)
    /// These rows (the console's marks).
    case rows([Int64])
}

/// What an action will remove, measured and captured: running it removes these rows and no
/// others (a row changed or removed since is skipped and counted as such).
package struct ForeignActionPreview: Sendable {
    package let namespace: String
    /// What the action does, in words (`sweep expired`, `delete prefix:a`).
    package let summary: String
    package let entries: Int
    package let bytes: Int64
    /// Rows of other tables that point at them and go too (requests-cache's redirects).
    package let dependents: Int
    /// Row ids and keys as captured.
    let targets: [ForeignTarget]
    /// Who runs it (`user@host`), for the trash's record.
    package var who = ""
    /// The console's target for it, as JSON, for the audit log.
    package var target: String?

    /// Up to `count` of the captured keys, as listings print them.
    package func sampleKeys(_ count: Int) -> [String] {
        targets.prefix(count).map { ForeignSection.display($0.key) }
    }
}

/// A captured row: its id and its key as stored (a new row reusing the id is not it).
struct ForeignTarget: Sendable {
    var row: Int64
    var key: SQLiteValue
}

/// What an action removed.
package struct ForeignActionResult: Sendable, Hashable, Codable {
    /// Its number in the trash file (for undo).
    package var actionID: Int64
    package var removed: Int
    package var dependentsRemoved: Int
    /// Captured rows already gone or changed when it ran.
    package var skipped: Int
    package var sideFilesMoved: Int
}

/// An action kept in the trash file.
package struct ForeignActionRecord: Sendable, Hashable, Codable {
    package var id: Int64
    package var at: Int64
    package var namespace: String
    package var summary: String
    package var entries: Int
    package var bytes: Int64
    package var undoneAt: Int64?
    /// Who ran it (`user@host`; empty when not recorded).
    package var who: String
    /// The console's target, as JSON, when it ran one.
    package var target: String?
}
