import Foundation

/// Who this process is, as the file's client list records it.
package struct ProcessIdentity: Sendable {
    package let pid: Int32
    package let host: String
    package let program: String

    /// This process, under `program`.
    package static func current(program: String) -> ProcessIdentity {
        ProcessIdentity(pid: getpid(), host: hostName, program: program)
    }

    /// The host name from `gethostname` (never a DNS lookup, unlike `ProcessInfo.hostName`).
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether a process with `pid` exists on this host (`kill(pid, 0)` finds it, or it
    /// exists but belongs to another user).
    static func isRunning(pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
