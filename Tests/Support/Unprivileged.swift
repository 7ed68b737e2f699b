import Foundation

/// Runs programs as a user that file permissions apply to. Root ignores permission bits (as
/// tests and CI run), so as root a program runs as `nobody` through util-linux's `setpriv`;
/// any other user runs it as is.
public enum Unprivileged {
    /// `nobody`.
    public static let user: UInt32 = 65534
    /// util-linux's tool that runs a program with other user and group ids.
    public static let setpriv = "/usr/bin/setpriv"

    /// Whether this process ignores permission bits.
    public static var isRoot: Bool { geteuid() == 0 }

    /// The executable and arguments that run `program` with `arguments` as a user that
    /// permissions apply to.
    public static func command(_ program: String, _ arguments: [String]) throws -> (
        executable: String, arguments: [String]
    ) {
        guard isRoot else { return (program, arguments) }
        guard FileManager.default.isExecutableFile(atPath: setpriv) else {
            throw SupportFailure("running as root needs \(setpriv) (util-linux) to drop privileges")
        }
        let identity = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"]
        return (setpriv, identity + [program] + arguments)
    }

    /// Sets `process` to run `program` with `arguments`: as that user when `unprivileged`.
    public static func prepare(
        _ process: Process, program: String, arguments: [String], unprivileged: Bool
    ) throws {
        guard unprivileged else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            return
        }
        let command = try command(program, arguments)
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.environment = environment()
    }

    /// The environment for such a run: `HOME` points nowhere, so no root-only config is read.
    public static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if isRoot {
            environment["HOME"] = "/nonexistent"
            environment["XDG_CONFIG_HOME"] = nil
            environment["XDG_CACHE_HOME"] = nil
        }
        return environment
    }

    /// Gives `path` `mode` (`0o444` read-only, `0o000` unreadable) and lets that user reach
    /// (but, as root, not write) its folder.
    public static func restrict(_ path: String, mode: Int) throws {
        let manager = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}

/// A fixture that could not be set up.
public struct SupportFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
