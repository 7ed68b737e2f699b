import CNCurses
import Foundation
import TerminalUI

/// Whether the terminal takes OSC 52 (`ESC ] 52 ; c ; base64 BEL`), which sets the system
/// clipboard, and the sequence itself. Terminals ignore what they do not know, so the console
/// only claims a copy where one is known to work: in tmux when its `set-clipboard` option is
/// `on` (tmux asked, by argv, once); elsewhere when the terminfo entry has `Ms` (the capability
/// tmux defined for it) or the terminal is one of those that take it by default.
enum Clipboard {
    /// Terminals (by `TERM_PROGRAM` or a `TERM` prefix) that take OSC 52 by default.
    private static let knownPrograms: Set<String> = ["iTerm.app", "WezTerm", "ghostty", "vscode"]
    private static let knownTerms = ["xterm-kitty", "alacritty", "foot", "wezterm", "xterm-ghostty", "contour"]

    /// Whether the terminal this process runs in takes OSC 52, from `environment`.
    static func isSupported(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let tmux = environment["TMUX"], !tmux.isEmpty { return tmuxOption("set-clipboard") == "on" }
        if let program = environment["TERM_PROGRAM"], knownPrograms.contains(program) { return true }
        if let term = environment["TERM"], knownTerms.contains(where: term.hasPrefix) { return true }
        return cn_capability("Ms") != nil
    }

    /// The sequence that sets the clipboard to `bytes`.
    static func sequence(_ bytes: [UInt8]) -> [UInt8] {
        Array("\u{1B}]52;c;\(Data(bytes).base64EncodedString())\u{07}".utf8)
    }

    /// The global value of tmux option `name`, as the tmux server of this session says.
    private static func tmuxOption(_ name: String) -> String? {
        guard let (status, output) = try? ChildProcess.run(["tmux", "show-options", "-gv", name], streams: .captured),
            status == 0
        else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
