import Foundation

/// Where the room for a store's file stands: what the filesystem and the file have free, and
/// the room the store keeps for removals (see ``StoreOptions/diskReserve``).
public struct DiskSpace: Sendable, Hashable, Codable {
    /// Bytes this user may still write on the file's filesystem.
    public let filesystemFree: Int
    /// Bytes of free pages inside the file, which new entries reuse before the file grows.
    public let fileFree: Int
    /// The size of the write-ahead log (`FILE-wal`). Until a checkpoint copies it into the
    /// file, removing anything needs room for the file to grow by up to this much.
    public let logBytes: Int
    /// The room kept for removals; 0 for a read-only store.
    public let reserve: Int

    /// Whether writes that add data are refused: the free space, counting the file's free
    /// pages, is below the reserve.
    public var isShort: Bool { filesystemFree + fileFree < reserve }

    /// Whether the disk is full for the purpose of removing: less than four times the reserve
    /// is free (counting the file's free pages). Actions then delete instead of keeping an
    /// undo copy, which would free nothing.
    public var isFullForRemovals: Bool { filesystemFree + fileFree < 4 * reserve }
}

extension CacheStore {
    /// Measures the room on the file's filesystem and in the file now.
    public func diskSpace() throws -> DiskSpace {
        let folder = (path as NSString).deletingLastPathComponent
        let free = DiskRoom.statistics(-1, folder.isEmpty ? "." : folder).map {
            DiskRoom.bytes($0.f_bavail, $0.f_frsize)
        }
        var log = stat()
        return DiskSpace(
            filesystemFree: free ?? 0, fileFree: try database.read { try $0.freePageBytes() },
            logBytes: stat(path + "-wal", &log) == 0 ? Int(log.st_size) : 0, reserve: database.room?.reserve ?? 0)
    }

    /// Before a removal: measures the room kept for removals and, when it is low, checkpoints
    /// the `-wal` (passively) so that the removal's pages reuse it from its start instead of
    /// growing it. Returns whether the disk is full for removals (see
    /// ``DiskRoom/isFullForRemovals(on:)``).
    func makeRoomForRemovals() throws -> Bool {
        guard let room = database.room else { return false }
        return try database.write(usingReserve: true) { room.isFullForRemovals(on: $0) }
    }

    /// After removals on a full disk: copies the `-wal` into the file and truncates it, so the
    /// filesystem gets that space back. Runs after the checkpoint a last batch started (see
    /// ``Checkpointer/checkpointAfterBatch()``), then waits at most 100 ms for readers; if
    /// they are in the way, the `-wal` stays for the next checkpoint.
    func giveBackLog() {
        _ = try? services.maintenance.checkpointer.checkpoint(.truncate, busyTimeout: .milliseconds(100))
    }
}
