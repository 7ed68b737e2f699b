import CacheDeckTestSupport
import Foundation

/// The `cachedeck-terminalprobe` fixture (built by `swift build --build-tests` next to the
/// test executable) running in a tmux pane, followed by a report of how it ended and of the
/// terminal modes it left behind:
///
///     probe-exit=143
///     modes: icrnl opost isig icanon echo
final class Probe {
    let tmux: Tmux
    let folder: URL
    var logPath: String { folder.appendingPathComponent("probe.log").path }

    /// Starts the probe with `environment` added (UTF-8 locale and `TERM=tmux-256color` unless
    /// overridden), and waits for its first frame unless `waitForReady` is false.
    init(environment: [String: String] = [:], columns: Int = 80, rows: Int = 24, waitForReady: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachedeck-probe-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("run.sh")
        try Data(
            """
            "$PROBE" --log "$LOG"
            echo "probe-exit=$?"
            echo "modes: $(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig|icrnl|opost)' | tr '\\n' ' ')"
            exec sleep 600

            """.utf8
        ).write(to: script)
        let settings = [
            "TERM": "tmux-256color", "LC_ALL": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no,color=no",
            "PROBE": try Self.path(), "LOG": folder.appendingPathComponent("probe.log").path,
        ].merging(environment) { _, given in given }
        tmux = try Tmux(
            columns: columns, rows: rows, environment: settings, command: "sh \(Tmux.quoted(script.path))",
            timeout: .seconds(30), joiningWrappedLines: true)
        if waitForReady { _ = try pid() }
    }

    deinit {
        // Releasing `tmux` kills its server, which hangs up the pane: a probe still running
        // gets SIGHUP and ends.
        try? FileManager.default.removeItem(at: folder)
    }

    /// The probe's process id, from its header.
    func pid() throws -> Int32 {
        let screen = try tmux.waitFor("pid=")
        guard let range = screen.range(of: #"pid=(\d+)"#, options: .regularExpression),
            let pid = Int32(screen[range].dropFirst(4))
        else { throw SupportFailure("no pid on the probe's screen") }
        return pid
    }

    /// The probe's second line: `last: key up`.
    func lastEvent() throws -> String {
        try tmux.lines().dropFirst().first ?? ""
    }

    /// Waits for the probe to report `event` as the last one.
    func waitForEvent(_ event: String) throws {
        try tmux.waitUntil("last: \(event)") { $0.components(separatedBy: "\n").dropFirst().first == "last: \(event)" }
    }

    /// Waits for the probe to end and returns its exit status and the terminal modes.
    func waitForExit() throws -> (status: Int, modes: Set<String>) {
        let screen = try tmux.waitUntil("the probe to exit") { screen in
            screen.contains("probe-exit=")
                && screen.components(separatedBy: "\n").contains {
                    $0.hasPrefix("modes: ") && $0.split(separator: " ").count == 6
                }
        }
        let lines = screen.components(separatedBy: "\n")
        guard let exit = lines.last(where: { $0.hasPrefix("probe-exit=") }).flatMap({ Int($0.dropFirst(11)) }),
            let modes = lines.last(where: { $0.hasPrefix("modes: ") })
        else { throw SupportFailure("no exit report on:\n\(screen)") }
        return (exit, Set(modes.dropFirst(7).split(separator: " ").map(String.init)))
    }

    /// The pane's terminal state: alternate screen, cursor shown, mouse reporting, keypad mode.
    func terminalState() throws -> String {
        try tmux.format("#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_cursor_flag}")
    }

    /// The fixture's path; `CACHEDECK_TERMINALPROBE` overrides the search beside the tests.
    static func path() throws -> String {
        try builtExecutable("cachedeck-terminalprobe", override: "CACHEDECK_TERMINALPROBE")
    }
}
