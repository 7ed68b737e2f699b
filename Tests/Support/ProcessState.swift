import Foundation

/// Whether a process (not necessarily a child of this one) is still running.
public enum ProcessState {
    /// Whether `pid` is running: a zombie nobody reaped (PID 1 in a container may not) has
    /// ended.
    public static func isRunning(_ pid: pid_t) -> Bool {
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let name = stat.lastIndex(of: ")")
        {
            let state = stat[stat.index(after: name)...].first { $0 != " " }
            return state != "Z" && state != "X"
        }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
