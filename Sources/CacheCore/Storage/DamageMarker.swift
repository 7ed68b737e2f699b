import Foundation

/// A damaged page a store met while running, remembered beside the file as `<file>-damaged`.
///
/// Opening probes only root pages (one read per table and index); damage deeper in a b-tree
/// shows when a statement reaches it. A writable store that meets it leaves this marker, so
/// the next store to open the file with ``DamagedFilePolicy/quarantine`` salvages it however
/// deep the damage is. Salvaging removes the marker.
enum DamageMarker {
    static func path(for file: String) -> String { file + "-damaged" }

    /// Leaves the marker (never through a symbolic link; an existing one stays).
    static func record(_ file: String) {
        let descriptor = open(path(for: file), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether this user left a marker for `file`.
    static func isRecorded(_ file: String) -> Bool {
        var info = stat()
        return lstat(path(for: file), &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
    }

    static func clear(_ file: String) { unlink(path(for: file)) }
}
