import Foundation

/// A tmux server of its own (`-L`, so a developer's sessions are untouched) running one
/// session, driven like a user would: keys in, the visible pane out.
final class Tmux {
    /// Where tmux is, if it is installed.
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    private let socket = "cachedeck-e2e-\(UUID().uuidString.prefix(8))"
    private let session = "console"

    /// Starts `sh` at `columns` × `rows` with a recognizable prompt and `environment` set.
    init(columns: Int, rows: Int, environment: [String: String] = [:]) throws {
        var command = "env PS1='e2e$ ' TERM=xterm-256color LANG=C.UTF-8"
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { command += " \(name)='\(value)'" }
        try run(
            ["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", command + " sh"],
            readingOutput: false)
        _ = try waitFor("e2e$")
    }

    deinit {
        // kill-server leaves the server running on some tmux versions; ending the only
        // session ends it.
        _ = try? run(["kill-session", "-t", session])
    }

    /// Types `text` literally (UTF-8), then presses Enter if asked.
    func type(_ text: String, enter: Bool = false) throws {
        try run(["send-keys", "-t", session, "-l", text])
        if enter { try keys("Enter") }
    }

    /// Presses keys by tmux name (`Enter`, `Escape`, `Down`, `Space`, `C-c`, …).
    func keys(_ names: String...) throws {
        try keys(names)
    }

    /// Presses keys by tmux name, from a list.
    func keys(_ names: [String]) throws {
        try run(["send-keys", "-t", session] + names)
    }

    /// The visible pane, one line per row; with `escapes`, with the SGR sequences of its
    /// colours and attributes (`capture-pane -e`).
    func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", session])
    }

    /// The pane's title, which programs set with OSC 0 or 2 (`\e]2;title\a`).
    func paneTitle() throws -> String {
        try run(["display-message", "-p", "-t", session, "#{pane_title}"])
    }

    /// Resizes the window (the console gets `KEY_RESIZE`).
    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the pane (with its SGR sequences if `escapes`) until `condition` holds, for at
    /// most `timeout`; returns the pane.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(15), escapes: Bool = false, _ condition: (String) -> Bool
    ) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pane = ""
        while clock.now < deadline {
            pane = try capture(escapes: escapes)
            if condition(pane) { return pane }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(description: "timed out waiting for \(what); the pane shows:\n\(pane)")
    }

    /// Polls the pane until it shows `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(15)) throws -> String {
        try waitUntil("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// Runs a tmux command. The command that starts the server must not capture output: the
    /// server inherits the pipe and would keep it open.
    @discardableResult
    private func run(_ arguments: [String], readingOutput: Bool = true) throws -> String {
        guard let executable = Self.executable else { throw Timeout(description: "tmux is not installed") }
        return try Subprocess.run(executable, ["-L", socket, "-f", "/dev/null"] + arguments, capturing: readingOutput)
    }
}
