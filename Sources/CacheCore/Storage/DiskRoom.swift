import Foundation
import Synchronization

/// The room a store keeps on its file's filesystem for removals, so that a full disk can be
/// relieved with the tools.
///
/// A WAL file cannot remove anything without room to write: a deletion appends pages to the
/// `-wal`, and copying the `-wal` into the file (a checkpoint) grows the file by the pages
/// written since the last one. When an app fills the filesystem to the last byte with pages
/// no checkpoint has copied yet, nothing can be removed at all until space is freed elsewhere
/// (measured on a 3 MB tmpfs: the demo left a 3 MB `-wal` over an 86 kB file, and every
/// checkpoint and deletion failed with `SQLITE_FULL`). So:
///
/// - writes that add data are refused with ``CacheError/diskFull(path:)`` when they would
///   leave less than ``reserve`` free on the filesystem (counting the free pages inside the
///   file); removals (actions, sweeps, purges, evictions, `remove`) may use the reserve;
/// - within ``checkpointMargin`` of the reserve, every write is followed by a passive
///   checkpoint, so the `-wal` never holds more than one write's new pages (which the reserve
///   covers) and is reused from its start instead of growing.
///
/// Each process measures after its own writes (one `fstatvfs`, about 0.3 µs); a process
/// refused while short measures again on each attempt, so it writes again as soon as a
/// removal or a purge made room.
final class DiskRoom: Sendable {
    /// Within this much of the reserve every write is checkpointed: twice what SQLite's
    /// automatic checkpoint (1,000 pages) lets the `-wal` hold.
    static let checkpointMargin = 8 << 20

    /// Bytes kept free for removals; 0 turns the guard off.
    let reserve: Int
    /// The file's folder, open for `fstatvfs` (-1 when it cannot be opened for reading: then
    /// measured by path).
    private let folder: Int32
    private let folderPath: String
    private let short = Atomic(false)
    /// The filesystem's free bytes at the last measure.
    private let lastFree = Atomic(Int.max)

    /// Measures the filesystem of `path`; `reserve` overrides the default (see
    /// ``StoreOptions/diskReserve``).
    init(path: String, reserve: Int?) {
        var directory = (path as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        folderPath = directory
        folder = Foundation.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        self.reserve = max(0, reserve ?? Self.defaultReserve(Self.statistics(folder, directory)))
    }

    deinit {
        if folder >= 0 { Foundation.close(folder) }
    }

    /// 1/32 of the filesystem, between 256 KiB and 64 MiB (0 when it cannot be measured).
    static func defaultReserve(_ info: statvfs?) -> Int {
        guard let info else { return 0 }
        return min(max(bytes(info.f_blocks, info.f_frsize) / 32, 256 << 10), 64 << 20)
    }

    /// The filesystem's figures, through `descriptor` or else by `path`.
    static func statistics(_ descriptor: Int32, _ path: String) -> statvfs? {
        var info = statvfs()
        let measured = descriptor >= 0 ? fstatvfs(descriptor, &info) : statvfs(path, &info)
        return measured == 0 ? info : nil
    }

    /// `blocks` of `size` bytes, saturating.
    static func bytes(_ blocks: UInt, _ size: UInt) -> Int {
        Int(clamping: UInt64(blocks).multipliedReportingOverflow(by: UInt64(size)).partialValue)
    }

    /// The bytes this user may still write on the filesystem (`f_bavail`: user quotas are not
    /// seen), or `nil` if it cannot be measured.
    func freeBytes() -> Int? {
        Self.statistics(folder, folderPath).map { Self.bytes($0.f_bavail, $0.f_frsize) }
    }

    /// Whether a write that adds about `bytes` (its rows' keys and values) must be refused: it
    /// would leave less than the reserve. A write may take up to three times its rows' bytes
    /// from the filesystem (its pages in the `-wal`, then in the file, with the indexes).
    /// Measures again (on `writer`, under the writer lock) when the last measure was short or
    /// left less than that.
    func refusesAdditions(of bytes: Int, on writer: SQLiteConnection) -> Bool {
        guard reserve > 0 else { return false }
        let take = 3 * bytes
        guard short.load(ordering: .relaxed) || lastFree.load(ordering: .relaxed) - take < reserve else { return false }
        guard let free = freeBytes() else { return false }
        lastFree.store(free, ordering: .relaxed)
        let fileFree = free - take < reserve ? (try? writer.freePageBytes()) ?? 0 : 0
        return free + fileFree - take < reserve
    }

    /// After a write on `writer`: checkpoints when the room is low and records whether it is
    /// short now.
    func afterWrite(on writer: SQLiteConnection) {
        guard reserve > 0 else { return }
        measure(on: writer)
    }

    /// Whether the last measure was within ``checkpointMargin`` of the reserve, where every
    /// write is checkpointed on the writer.
    var isLow: Bool {
        reserve > 0 && lastFree.load(ordering: .relaxed) < reserve + Self.checkpointMargin
    }

    /// A write failed with `SQLITE_FULL`: the next write that adds data measures first.
    func noteFull() {
        if reserve > 0 { short.store(true, ordering: .relaxed) }
    }

    /// Before a removal (on `writer`, under the writer lock): checkpoints when the room is low
    /// and says whether the disk is full for the purpose of removing: less than four times the
    /// reserve is free (counting the file's free pages). An app whose larger writes no longer
    /// fit sees a full disk well before the last reserved byte, and a trash copy would then
    /// free nothing.
    func isFullForRemovals(on writer: SQLiteConnection) -> Bool {
        guard reserve > 0, let room = measure(on: writer) else { return false }
        return room < 4 * reserve
    }

    /// Measures the free bytes of the filesystem (after a passive checkpoint when they are
    /// low) and records whether the disk is short; returns the free bytes plus, when they are
    /// low, the file's free pages.
    @discardableResult
    private func measure(on writer: SQLiteConnection) -> Int? {
        guard var free = freeBytes() else { return nil }
        if free < reserve + Self.checkpointMargin {
            // Errors are the answer here: a checkpoint that found no room leaves `free` low.
            if (try? writer.checkpoint(.passive)) != nil { free = freeBytes() ?? free }
        }
        lastFree.store(free, ordering: .relaxed)
        let room = free < 4 * reserve ? free + ((try? writer.freePageBytes()) ?? 0) : free
        short.store(room < reserve, ordering: .relaxed)
        return room
    }
}
