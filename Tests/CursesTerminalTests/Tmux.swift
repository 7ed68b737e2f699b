import Foundation

/// A private tmux server running one pane, for end-to-end tests: keys go in with
/// `send-keys`, the screen comes out with `capture-pane`. Each instance has its own socket
/// (never the user's server) and kills its server when released.
final class Tmux {
    /// The tmux executable on `PATH`, if any: tests that need it are skipped without it.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first(where: FileManager.default.isExecutableFile)
    }()

    /// How long any wait may last before the test fails instead of hanging.
    static let timeout: Duration = .seconds(30)

    /// The server's socket: a path of our own (not under tmux's socket folder), removed with
    /// the server.
    private let socket = FileManager.default.temporaryDirectory
        .appendingPathComponent("cachedeck-e2e-\(UUID().uuidString.prefix(12)).sock").path

    /// Starts a server whose only pane (`columns` × `rows`) runs `command` through `sh -c`.
    init(columns: Int = 80, rows: Int = 24, command: String) throws {
        try run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "e2e", command])
    }

    deinit {
        _ = try? run(["kill-session", "-t", "e2e"])
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// The pane's text, wrapped lines joined, trailing spaces removed.
    func capture() throws -> String {
        try run(["capture-pane", "-p", "-J", "-t", "e2e"]).components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    /// The pane's text with its colours and attributes as escape sequences.
    func captureWithEscapes() throws -> String {
        try run(["capture-pane", "-p", "-e", "-t", "e2e"])
    }

    /// The pane's text as lines.
    func lines() throws -> [String] {
        try capture().components(separatedBy: "\n")
    }

    /// Sends tmux key names (`Up`, `C-a`, `x`).
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", "e2e"] + keys)
    }

    /// Sends `text` literally.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "e2e", "-l", text])
    }

    /// A tmux format evaluated for the pane (`#{alternate_on}`, …).
    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", "e2e", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", "e2e", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the pane until `condition` holds for its text and returns that text; throws with
    /// the last screen when `timeout` passes first.
    @discardableResult
    func waitFor(_ description: String, _ condition: (String) -> Bool) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.timeout
        var screen = ""
        while clock.now < deadline {
            screen = try capture()
            if condition(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw E2EFailure("timed out waiting for \(description); the pane shows:\n\(screen)")
    }

    /// Waits until some line of the pane contains `text`.
    @discardableResult
    func waitFor(text: String) throws -> String {
        try waitFor("'\(text)'") { $0.contains(text) }
    }

    /// Runs one tmux command and returns its output.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw E2EFailure("tmux is not installed") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-" + UUID().uuidString)
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-err-" + UUID().uuidString)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        for inherited in ["TMUX", "NO_COLOR"] { environment.removeValue(forKey: inherited) }
        let status = try Self.spawnAndWait(
            executable, ["-u", "-S", socket, "-f", "/dev/null"] + arguments, environment: environment,
            output: output.path, errors: errors.path)
        guard status == 0 else {
            let problem = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw E2EFailure("tmux \(arguments.joined(separator: " ")) failed (\(status)): \(problem)")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }

    /// Runs `executable` with output to files and waits for it with `waitpid`. Not Foundation's
    /// `Process`: it learns that a child ended from a descriptor the child inherits, and the
    /// tmux server that `new-session` forks keeps that open for its whole life.
    private static func spawnAndWait(
        _ executable: String, _ arguments: [String], environment: [String: String], output: String, errors: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for string in argv + envp { free(string) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw E2EFailure("cannot start tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw E2EFailure("waiting for tmux failed: errno \(errno)") }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
