import Foundation

/// How far ``CacheStore/compact(progress:)`` is.
public struct CompactionProgress: Sendable, Hashable {
    /// Free pages given back so far.
    public let pagesFreed: Int
    /// The free pages there were when it started; `nil` while a file made before format 6 is
    /// rebuilt, a single step whose progress SQLite does not report.
    public let pagesToFree: Int?
}

/// What ``CacheStore/compact(progress:)`` did.
public struct CompactionOutcome: Sendable, Hashable, Codable {
    /// The sizes before and after.
    public let before: CacheSize
    public let after: CacheSize
    /// Whether the file was rebuilt (`VACUUM`, once for a file made before format 6) rather
    /// than shrunk in steps.
    public let rebuilt: Bool
    /// Whether the progress handler stopped it early (what it freed stays freed).
    public let isCancelled: Bool

    /// The bytes the file and its WAL gave back to the filesystem.
    public var freedBytes: Int { max(0, before.diskBytes - after.diskBytes) }
}

/// Giving space back to the filesystem.
///
/// Removals leave free pages inside the file, which later writes reuse, and grow the WAL until
/// a checkpoint copies it into the file. Files made since format 6 are incrementally vacuumed:
/// a clear, a namespace or prefix or tag removal, an explicit sweep and a trash purge give
/// their free pages back at once, in steps, and truncate the WAL (when no reader holds it).
/// ``CacheStore/compact(progress:)`` does the same on request, and rebuilds an older file once
/// so that it gives space back from then on.
extension CacheStore {
    /// Gives the file's free pages and its WAL back to the filesystem, flushing first. A file
    /// made since format 6 shrinks in steps of 8 MB, each a short write of its own (the app's
    /// writes interleave), and `progress` hears after each step (returning `false` stops).
    /// An older file is rebuilt once (`VACUUM`: other writers wait for it, and it needs free
    /// disk space about the size of the file), which also makes it shrink in steps later.
    /// The WAL is truncated last, waiting up to ``StoreOptions/busyTimeout`` for readers.
    @discardableResult
    public func compact(progress: ((CompactionProgress) -> Bool)? = nil) throws -> CompactionOutcome {
        guard !isReadOnly else { throw CacheError.readOnly(path: path) }
        try flush()
        let before = try size()
        let rebuilt = try !database.read { try $0.isIncrementallyVacuumed() }
        var finished = true
        if rebuilt {
            _ = progress?(CompactionProgress(pagesFreed: 0, pagesToFree: nil))
            try database.write(usingReserve: true) { try $0.rebuildIncrementallyVacuumed() }
        } else {
            finished = try vacuumInSteps(progress: progress)
        }
        _ = try? services.maintenance.checkpointer.checkpoint(.truncate, busyTimeout: options.busyTimeout)
        return CompactionOutcome(before: before, after: try size(), rebuilt: rebuilt, isCancelled: !finished)
    }

    /// After a large removal: the free pages of an incrementally vacuumed file go back in
    /// steps, then the WAL is truncated (waiting at most 100 ms for readers). Failures are left
    /// for the next removal, compaction or maintenance pass.
    func giveSpaceBack() {
        if (try? database.read({ try $0.isIncrementallyVacuumed() })) == true {
            _ = try? vacuumInSteps(progress: nil)
        }
        giveBackLog()
    }

    /// Frees the file's free pages one ``SQLiteConnection/vacuumStep()`` at a time; returns
    /// `false` when `progress` stopped it.
    private func vacuumInSteps(progress: ((CompactionProgress) -> Bool)?) throws -> Bool {
        let total = try database.read { try $0.freePages() }
        var left = total
        while left > 0 {
            let now = try database.write(usingReserve: true) { connection in
                try connection.vacuumStep()
                return try connection.freePages()
            }
            // Another process's writes may reuse free pages meanwhile; stop when none went.
            guard now < left else { return true }
            left = now
            if progress?(CompactionProgress(pagesFreed: max(0, total - left), pagesToFree: total)) == false {
                return false
            }
        }
        return true
    }
}
