import Foundation

/// Runs one tmux client command with `posix_spawn` and `waitpid`. Not Foundation's `Process`:
/// it learns that a child ended from a descriptor the child inherits, and the server that
/// `new-session` forks keeps that open for its whole life. Output goes to files for the same
/// reason (a pipe would never reach its end).
enum TmuxCommand {
    /// Runs `executable` with `arguments`; returns its standard output, or throws with its
    /// standard error when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory
        let output = folder.appendingPathComponent("cachedeck-tmux-out-" + UUID().uuidString)
        let errors = folder.appendingPathComponent("cachedeck-tmux-err-" + UUID().uuidString)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let status = try spawnAndWait(executable, arguments, output: output.path, errors: errors.path)
        guard status == 0 else {
            let problem = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw SupportFailure("tmux \(arguments.joined(separator: " ")) failed (\(status)): \(problem)")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }

    /// The environment tmux runs in (and a server it starts hands its panes): this process's,
    /// in a UTF-8 locale, outside any tmux, with colours allowed.
    private static let environment: [String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        for inherited in ["TMUX", "TMUX_PANE", "NO_COLOR"] { environment.removeValue(forKey: inherited) }
        return environment.map { "\($0.key)=\($0.value)" }
    }()

    /// Runs `executable` with standard input from `/dev/null`, the others to files; returns its
    /// exit status (128 + the signal if a signal ended it).
    private static func spawnAndWait(
        _ executable: String, _ arguments: [String], output: String, errors: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for string in argv + envp { free(string) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SupportFailure("cannot start tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SupportFailure("waiting for tmux failed: errno \(errno)") }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
