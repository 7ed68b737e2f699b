#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Points file descriptor 2 at a log file (or `/dev/null`) while curses owns the screen, and
/// back afterwards.
struct StderrRedirection {
    /// A copy of the original stderr, restored by ``end()``.
    let savedDescriptor: Int32

    /// Sends stderr to `path` (created with mode 0600 if missing, appended to).
    static func begin(to path: String) throws(TerminalError) -> StderrRedirection {
        fflush(nil)
        let target = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw .cannotOpenLog(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(target) }
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0, dup2(target, 2) >= 0 else {
            if saved >= 0 { close(saved) }
            throw .cannotOpenLog(path: path, reason: String(cString: strerror(errno)))
        }
        return StderrRedirection(savedDescriptor: saved)
    }

    /// Puts the original stderr back.
    func end() {
        fflush(nil)
        dup2(savedDescriptor, 2)
        close(savedDescriptor)
    }
}
