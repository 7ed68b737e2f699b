import CacheDeckTestSupport
import Foundation
import Testing

/// `cachedeck FILE` on a file the user cannot write: the console opens it read-only and says
/// so in its status line (as k9s and lazygit do), instead of refusing it. Needs a terminal,
/// so it runs under tmux (skipped without it).
@Suite struct ReadOnlyConsoleTests {
    @Test(.enabled(if: Tmux.executable != nil, "needs tmux"))
    func aFileTheUserCannotWriteOpensReadOnlyWithANotice() throws {
        let folder = try TemporaryFolder()
        let path = try BadFile.readOnly.make(in: folder.path)
        let bytes = FileManager.default.contents(atPath: path)
        let console = try Unprivileged.command(try CacheDeckBinary.path(), [path])
        // The pane says `exited N` when the console ends, and keeps showing its last screen.
        let script =
            ([console.executable] + console.arguments).map(Tmux.quoted).joined(separator: " ")
            + "; status=$?; echo; echo \"exited $status\"; read line"
        let tmux = try Tmux(
            columns: 200, rows: 40,
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": "/nonexistent"],
            command: "sh -c \(Tmux.quoted(script))")
        let notice = "Read-only: you cannot write \(path), so actions are disabled."
        let pane = try tmux.waitUntil("the notice") { $0.contains(notice) || $0.contains("exited ") }
        #expect(pane.contains(notice), "the pane shows:\n\(pane)")
        try tmux.keys("q")
        let end = try tmux.waitFor("exited ")
        #expect(end.contains("exited 0"), "the pane shows:\n\(end)")
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }
}
