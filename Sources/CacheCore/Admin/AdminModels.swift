import Foundation

/// What an action would remove, measured at one moment (a dry run).
public struct ActionImpact: Sendable, Hashable, Codable {
    /// Entries it would remove.
    public let entries: Int
    /// Their bytes (value plus key).
    public let bytes: Int
    /// Their share of the hits recorded on the whole store in the last hour, 0…1; `nil` where
    /// the store keeps no hits per entry (Redis).
    public let recentHitShare: Double?
    /// Up to ten of the keys, as `namespace/key`.
    public let sampleKeys: [String]
    /// Whether the disk is full (see ``DiskSpace/isFullForRemovals``): run now, an undoable
    /// action deletes what it removes instead of keeping it for undo.
    public let isDiskFull: Bool

    /// An impact with these figures (``Admin/preview(_:)`` measures real ones).
    public init(entries: Int, bytes: Int, recentHitShare: Double?, sampleKeys: [String], isDiskFull: Bool = false) {
        self.entries = entries
        self.bytes = bytes
        self.recentHitShare = recentHitShare
        self.sampleKeys = sampleKeys
        self.isDiskFull = isDiskFull
    }

    private enum CodingKeys: String, CodingKey {
        case entries, bytes, recentHitShare, sampleKeys, isDiskFull
    }

    /// Encodes every field, an unknown hit share as `null` (so JSON has the same keys for
    /// every store).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(recentHitShare, forKey: .recentHitShare)
        try container.encode(sampleKeys, forKey: .sampleKeys)
        try container.encode(isDiskFull, forKey: .isDiskFull)
    }
}

/// Who ran an action: recorded in the audit log.
public struct ActionOrigin: Sendable, Hashable, Codable {
    /// The login name.
    public let user: String
    /// The machine.
    public let host: String
    /// The process.
    public let pid: Int32
    /// The program's name.
    public let program: String

    /// Creates an origin.
    public init(user: String, host: String, pid: Int32, program: String) {
        self.user = user
        self.host = host
        self.pid = pid
        self.program = program
    }

    /// This process, run by the current user.
    public static var current: ActionOrigin {
        let environment = ProcessInfo.processInfo.environment
        return ActionOrigin(
            user: environment["USER"] ?? environment["LOGNAME"] ?? FileTrust.accountName(getuid()) ?? "uid \(getuid())",
            host: ProcessInfo.processInfo.hostName, pid: getpid(), program: ProcessInfo.processInfo.processName)
    }
}

/// What an action did.
public struct ActionOutcome: Sendable, Hashable, Codable {
    /// The audit row; pass it to ``Admin/restore(_:origin:)`` to undo the action. 0 when the
    /// disk had no room for the row (``isAudited`` is then false).
    public let auditID: Int64
    /// Entries removed.
    public let removed: Int
    /// Their bytes.
    public let bytes: Int
    /// Whether the removed rows are in the trash (so the action can be undone); false for a
    /// sweep, and for an action that ran on a full disk.
    public let isUndoable: Bool
    /// Whether the progress handler stopped it before the end; what it removed until then
    /// is in the trash and can be undone as usual.
    public let isCancelled: Bool
    /// Whether the disk was full (short of the room the store keeps for removals, see
    /// ``StoreOptions/diskReserve``): the action then deleted what it removed, without a copy
    /// in the trash, since a copy would have freed nothing.
    public let wasDiskFull: Bool
    /// Entries it selected but could not remove: the disk had no room left even to delete
    /// one. Free space on the filesystem and run it again.
    public let notRemoved: Int
    /// Whether its audit row was written (a full disk may have had no room for it).
    public let isAudited: Bool

    /// An outcome with these figures (``Admin/run(_:origin:progress:)`` reports real ones).
    public init(
        auditID: Int64, removed: Int, bytes: Int, isUndoable: Bool, isCancelled: Bool = false,
        wasDiskFull: Bool = false, notRemoved: Int = 0, isAudited: Bool = true
    ) {
        self.auditID = auditID
        self.removed = removed
        self.bytes = bytes
        self.isUndoable = isUndoable
        self.isCancelled = isCancelled
        self.wasDiskFull = wasDiskFull
        self.notRemoved = notRemoved
        self.isAudited = isAudited
    }
}

/// One row of the audit log.
public struct AuditRecord: Sendable, Hashable, Codable {
    /// The row id.
    public let id: Int64
    /// When the action ran (ms since the epoch).
    public let at: Int64
    /// Who ran it.
    public let origin: ActionOrigin
    /// What it removed; `nil` for a restore.
    public let target: AdminTarget?
    /// The action it undid, for a restore.
    public let restoredAuditID: Int64?
    /// Entries removed (or, for a restore, brought back).
    public let entries: Int
    /// Their bytes.
    public let bytes: Int
    /// When it was undone, if it was.
    public let undoneAt: Int64?
    /// Whether its rows are still in the trash, so it can be undone now.
    public let canUndo: Bool
    /// Up to five of the keys it removed that are still in the trash, as `namespace/key`.
    public let sampleKeys: [String]
    /// When it ended; `nil` while it runs, or when its process was killed before the end (its
    /// counts then say what it had removed by then, and it can be undone).
    public let finishedAt: Int64?

    /// The memberwise initializer, for the package's other targets.
    package init(
        id: Int64, at: Int64, origin: ActionOrigin, target: AdminTarget?, restoredAuditID: Int64?, entries: Int,
        bytes: Int, undoneAt: Int64?, canUndo: Bool, sampleKeys: [String], finishedAt: Int64?
    ) {
        self.id = id
        self.at = at
        self.origin = origin
        self.target = target
        self.restoredAuditID = restoredAuditID
        self.entries = entries
        self.bytes = bytes
        self.undoneAt = undoneAt
        self.canUndo = canUndo
        self.sampleKeys = sampleKeys
        self.finishedAt = finishedAt
    }
}

/// How far a long action is: done out of total entries.
public struct ActionProgress: Sendable, Hashable {
    /// Entries handled so far.
    public let done: Int
    /// Entries the action had to handle when it started (its preview's count).
    public let total: Int

    /// A progress report.
    public init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }
}
