import Foundation

/// A tmux server of its own running one session, driven as a user would: keys in, the pane
/// out. Its socket is a path of its own in the temporary directory (never the user's server,
/// nothing left in tmux's socket folder); releasing the driver ends the server and removes
/// the socket.
public final class Tmux {
    /// The tmux executable (on `PATH` or in a usual place), if any: tests that need it are
    /// skipped without it.
    public static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"])
            .map { ($0 as NSString).appendingPathComponent("tmux") }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The prompt of the shell a session without a command runs.
    public static let prompt = "e2e$ "

    /// The server's socket.
    public let socket = FileManager.default.temporaryDirectory
        .appendingPathComponent("cachedeck-tmux-\(UUID().uuidString.prefix(12)).sock").path
    /// The server's process id, once it has started.
    public private(set) var server: pid_t?
    /// How long a wait lasts, unless it says otherwise, before it fails instead of hanging.
    public let timeout: Duration
    private let joinsWrappedLines: Bool
    private let session = "main"

    /// Starts a server whose only pane (`columns` × `rows`) runs `command` (through the shell)
    /// with `environment` set. Without a command the pane runs `sh` with ``prompt``,
    /// `TERM=xterm-256color` and `LANG=C.UTF-8` (unless `environment` says otherwise), and
    /// this waits for the prompt. With `joiningWrappedLines`, plain captures join the rows the
    /// terminal wrapped into one line (`capture-pane -J`) and drop trailing spaces.
    public init(
        columns: Int = 80, rows: Int = 24, environment: [String: String] = [:], command: String? = nil,
        timeout: Duration = .seconds(15), joiningWrappedLines: Bool = false
    ) throws {
        self.timeout = timeout
        joinsWrappedLines = joiningWrappedLines
        var settings = environment
        if command == nil {
            settings = ["PS1": Self.prompt, "TERM": "xterm-256color", "LANG": "C.UTF-8"].merging(environment) { $1 }
        }
        let assignments = settings.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let program = command ?? "sh"
        let line = assignments.isEmpty ? program : "env \(assignments.joined(separator: " ")) \(program)"
        let started = try run(
            ["new-session", "-d", "-P", "-F", "#{pid}", "-s", session, "-x", "\(columns)", "-y", "\(rows)", line])
        server = pid_t(started.trimmingCharacters(in: .whitespacesAndNewlines))
        if command == nil { try waitFor(Self.prompt.trimmingCharacters(in: .whitespaces)) }
    }

    deinit {
        // kill-server leaves the server running on some tmux versions; ending its only session
        // ends it. Each step runs only if the one before did not end the server.
        _ = try? run(["kill-session", "-t", session])
        if server.map(Self.ends) != true {
            _ = try? run(["kill-server"])
            if let server, !Self.ends(server) {
                kill(server, SIGKILL)
                _ = Self.ends(server)
            }
        }
        // tmux leaves its socket file behind when the server ends.
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// `word` quoted for `sh`.
    public static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Types `text` literally (UTF-8), then presses Enter if asked.
    public func type(_ text: String, enter: Bool = false) throws {
        try run(["send-keys", "-t", session, "-l", text])
        if enter { try keys("Enter") }
    }

    /// Presses keys by tmux name (`Enter`, `Escape`, `Down`, `Space`, `C-c`, `x`, …).
    public func keys(_ names: String...) throws {
        try keys(names)
    }

    /// Presses keys by tmux name, from a list.
    public func keys(_ names: [String]) throws {
        try run(["send-keys", "-t", session] + names)
    }

    /// The pane, one line per row; with `escapes`, with the SGR sequences of its colours and
    /// attributes (`capture-pane -e`).
    public func capture(escapes: Bool = false) throws -> String {
        if escapes { return try run(["capture-pane", "-p", "-e", "-t", session]) }
        guard joinsWrappedLines else { return try run(["capture-pane", "-p", "-t", session]) }
        return try run(["capture-pane", "-p", "-J", "-t", session]).components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    /// The pane's lines.
    public func lines() throws -> [String] {
        try capture().components(separatedBy: "\n")
    }

    /// A tmux format evaluated for the pane (`#{alternate_on}`, `#{mouse_any_flag}`, …).
    public func format(_ format: String) throws -> String {
        let value = try run(["display-message", "-p", "-t", session, format])
        return value.hasSuffix("\n") ? String(value.dropLast()) : value
    }

    /// The pane's title, which programs set with OSC 0 or 2 (`\e]2;title\a`).
    public func paneTitle() throws -> String {
        try format("#{pane_title}")
    }

    /// Resizes the window (a curses program gets `KEY_RESIZE`).
    public func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Sets the server's global option `name` (`set-clipboard on`, …).
    public func setOption(_ name: String, _ value: String) throws {
        try run(["set-option", "-g", name, value])
    }

    /// The newest paste buffer (where OSC 52 lands with `set-clipboard on`); `nil` when none.
    public func pasteBuffer() -> String? {
        try? run(["show-buffer"])
    }

    /// Polls the pane (with its SGR sequences if `escapes`) until `condition` holds, for at
    /// most `timeout` (``timeout`` if nil); returns the pane, or throws with the last one.
    @discardableResult
    public func waitUntil(
        _ what: String, timeout: Duration? = nil, escapes: Bool = false, _ condition: (String) -> Bool
    ) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + (timeout ?? self.timeout)
        var pane = ""
        while clock.now < deadline {
            pane = try capture(escapes: escapes)
            if condition(pane) { return pane }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw SupportFailure("timed out waiting for \(what); the pane shows:\n\(pane)")
    }

    /// Polls the pane until it shows `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration? = nil) throws -> String {
        try waitUntil("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// Runs one tmux command on this server and returns its output.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw SupportFailure("tmux is not installed") }
        return try TmuxCommand.run(executable, ["-u", "-S", socket, "-f", "/dev/null"] + arguments)
    }

    /// Waits (up to 2 s) for `server` to end; whether it did.
    private static func ends(_ server: pid_t) -> Bool {
        eventually(within: .seconds(2)) { !ProcessState.isRunning(server) } != nil
    }
}
