import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted for one test: a real filesystem that fills up. Mounting needs root
/// (the tests run as root here and in CI); ``isAvailable`` says whether it works here.
public final class Tmpfs {
    /// The mount point.
    public let path: String

    /// Mounts a tmpfs of `kilobytes` at a fresh folder.
    public init(kilobytes: Int) throws {
        path = NSTemporaryDirectory() + "cachedeck-tmpfs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #if os(Linux)
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: path)
                throw SupportFailure("cannot mount a tmpfs at \(path): \(reason)")
            }
        #else
            throw SupportFailure("tmpfs mounts are for Linux")
        #endif
    }

    deinit {
        #if os(Linux)
            if umount(path) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
        #endif
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Grows (or shrinks) the filesystem to `kilobytes`, as freeing space elsewhere would.
    public func resize(kilobytes: Int) throws {
        #if os(Linux)
            guard mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT), "size=\(kilobytes)k,mode=0700") == 0 else {
                throw SupportFailure("cannot resize the tmpfs at \(path): \(String(cString: strerror(errno)))")
            }
        #endif
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The bytes still free on it.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Whether a tmpfs can be mounted here (root on Linux).
    public static let isAvailable: Bool = (try? Tmpfs(kilobytes: 64)) != nil
}
