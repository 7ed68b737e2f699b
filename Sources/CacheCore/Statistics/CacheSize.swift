import Foundation

/// How much space a cache file takes, in bytes.
public struct CacheSize: Sendable, Hashable, Codable {
    /// The database file.
    public var fileBytes: Int
    /// The write-ahead log (`-wal`) next to it; checkpoints move it into the file.
    public var walBytes: Int
    /// The keys and values of the stored entries (including expired entries not swept
    /// yet), without SQLite's pages, indexes and free space.
    public var payloadBytes: Int
    /// The file's free pages: space removals left that later writes reuse before the file
    /// grows, and that ``CacheStore/compact(progress:)`` gives back to the filesystem.
    public var freeBytes: Int

    /// Creates a size.
    public init(fileBytes: Int, walBytes: Int, payloadBytes: Int, freeBytes: Int = 0) {
        self.fileBytes = fileBytes
        self.walBytes = walBytes
        self.payloadBytes = payloadBytes
        self.freeBytes = freeBytes
    }

    /// The file and its WAL together: what the cache takes on disk.
    public var diskBytes: Int { fileBytes + walBytes }

    /// What ``CacheStore/compact(progress:)`` would give back: the free pages and the WAL
    /// (rebuilding a file made before format 6 may free a little more, from half-empty pages).
    public var compactableBytes: Int { min(diskBytes, freeBytes + walBytes) }
}

extension CacheSize {
    /// The size of the file at `path`, or 0 when there is none.
    static func bytes(ofFileAt path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
