import CacheDeckTestSupport
import Foundation
import Glibc
import Testing

/// `cachedeck FILE` on a file the user cannot write: the console opens it read-only and says
/// so in its status line (as k9s and lazygit do), instead of refusing it. Needs a terminal,
/// so it runs under tmux (skipped without it).
@Suite struct ReadOnlyConsoleTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: tmux != nil, "needs tmux"))
    func aFileTheUserCannotWriteOpensReadOnlyWithANotice() throws {
        let folder = try TemporaryFolder()
        let path = try BadFile.readOnly.make(in: folder.path)
        let bytes = FileManager.default.contents(atPath: path)
        let console = try Unprivileged.command(try CacheDeckBinary.path(), [path])
        let session = try TmuxSession(
            command: "env TERM=xterm-256color LANG=C.UTF-8 HOME=/nonexistent "
                + ([console.executable] + console.arguments).map(TmuxSession.quoted).joined(separator: " "))
        let notice = "Read-only: you cannot write \(path), so actions are disabled."
        let pane = try session.waitFor { $0.contains(notice) || $0.contains("exited ") }
        #expect(pane.contains(notice), "the pane shows:\n\(pane)")
        try session.send("q")
        let end = try session.waitFor { $0.contains("exited ") }
        #expect(end.contains("exited 0"), "the pane shows:\n\(end)")
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }
}

/// One tmux server and session of its own, running `command` in a 200 × 40 pane; the pane
/// says `exited N` when the command ends, and keeps showing its last screen.
private final class TmuxSession {
    private let socket = "cachedeck-cli-\(UUID().uuidString.prefix(8))"

    init(command: String) throws {
        let script = "\(command); status=$?; echo; echo \"exited $status\"; read line"
        // The server this starts inherits stdout: it must not be a pipe read to its end.
        try run(
            ["new-session", "-d", "-s", "main", "-x", "200", "-y", "40", "sh -c \(Self.quoted(script))"],
            capturing: false)
    }

    // Ending the only session ends the server (kill-server leaves it running on some versions).
    deinit { _ = try? run(["kill-session", "-t", "main"]) }

    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func send(_ keys: String) throws { try run(["send-keys", "-t", "main", keys]) }

    /// Polls the pane until `condition` holds (15 s at most) and returns it.
    func waitFor(_ condition: (String) -> Bool) throws -> String {
        let deadline = Date(timeIntervalSinceNow: 15)
        var pane = ""
        while Date() < deadline {
            pane = try run(["capture-pane", "-p", "-t", "main"])
            if condition(pane) { return pane }
            usleep(50_000)
        }
        return pane
    }

    /// Runs tmux with `posix_spawn` and `waitpid`: Foundation's `Process` never sees
    /// `new-session` exit, as the server it starts keeps a descriptor Foundation watches.
    @discardableResult
    private func run(_ arguments: [String], capturing: Bool = true) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { throw CLIFailure("pipe failed: \(errno)") }
        _ = fcntl(pipe[0], F_SETFD, FD_CLOEXEC)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let executable = ReadOnlyConsoleTests.tmux ?? "tmux"
        let words = [executable, "-L", socket, "-f", "/dev/null"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw CLIFailure("cannot run \(executable): error \(spawned)") }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while capturing {
            let count = read(pipe[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: buffer[0..<count])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
