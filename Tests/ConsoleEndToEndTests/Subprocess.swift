import Foundation
import Glibc

/// Runs a program and waits for it with `posix_spawn` and `waitpid`. (Foundation's `Process`
/// never sees `tmux new-session` exit: the tmux server it starts keeps a descriptor Foundation
/// watches.) Standard input and error are `/dev/null`; standard output is captured or dropped.
enum Subprocess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `executable` with `arguments`; returns its standard output when `capturing`.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], capturing: Bool) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipe: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if capturing {
            guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe: \(errno)") }
            _ = fcntl(pipe[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipe[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        if capturing { close(pipe[1]) }
        guard spawned == 0 else {
            if capturing { close(pipe[0]) }
            throw Failure(description: "cannot run \(executable): error \(spawned)")
        }
        var output = Data()
        if capturing {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(pipe[0], &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
