import Foundation

/// Whom a store trusts to have written its cache file.
///
/// A cache file, its `-wal` and its `-shm` are input: another user who can write them (or
/// planted them before the file was opened) decides what the store reads, and a `-wal` they
/// own lets them read every value written afterwards. Careful tools check ownership first
/// (OpenSSH, git's `safe.directory`, SQLite's own advice); so does a store.
public enum FileTrust: Sendable, Hashable {
    /// An app's own cache: the file, its `-wal` and `-shm` must belong to this user (or
    /// root), be writable by no one else, and the `-wal` and `-shm` must not be symbolic links.
    case owner
    /// An operator's tools inspecting an app's cache: any owner, but a file or `-wal` that
    /// users other than its owner may write is refused (its content proves nothing), and so
    /// is a `-wal` or `-shm` that is a symbolic link.
    case inspector
    /// No check: the operator has looked and trusts the file anyway.
    case any

    /// Throws ``CacheError/untrusted(path:reason:)`` when the file at `path` (which exists)
    /// or its `-wal` or `-shm` fails the check.
    func verify(_ path: String) throws {
        guard self != .any else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        try verify(info, name: "it", path: path)
        for suffix in ["-wal", "-shm"] {
            var side = stat()
            guard lstat(path + suffix, &side) == 0 else { continue }
            if side.st_mode & S_IFMT == S_IFLNK {
                throw CacheError.untrusted(path: path, reason: "its \(suffix) is a symbolic link")
            }
            if self == .owner || suffix == "-wal" { try verify(side, name: "its \(suffix)", path: path) }
        }
    }

    private func verify(_ info: stat, name: String, path: String) throws {
        let me = geteuid()
        if self == .owner && info.st_uid != me && info.st_uid != 0 {
            throw CacheError.untrusted(
                path: path,
                reason:
                    "\(name) belongs to \(Self.userName(info.st_uid)), not to you (another user could have planted it)")
        }
        let writers = info.st_mode & (S_IWGRP | S_IWOTH)
        if writers != 0 {
            let who = writers & S_IWOTH != 0 ? "every user" : "its group"
            throw CacheError.untrusted(
                path: path,
                reason: "\(name) is writable by \(who) (mode \(String(info.st_mode & 0o777, radix: 8))), "
                    + "so anyone could have changed what it holds")
        }
    }

    /// `alice (uid 1000)`, or `uid 1000` for an id without a name.
    static func userName(_ uid: uid_t) -> String {
        accountName(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }

    /// The account name of `uid` (as `ls -l` shows it), if it has one.
    static func accountName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}

extension CacheStore {
    /// Who owns the cache file when it is not the user running this process (an operator
    /// inspecting an app's cache), e.g. `alice (uid 1000)`; `nil` when it is this user's.
    public var fileOwner: String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_uid != geteuid() else { return nil }
        return FileTrust.userName(info.st_uid)
    }
}
