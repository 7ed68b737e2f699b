import CacheDeckTestSupport
import Foundation
import Testing

/// The shared tmux driver leaves nothing behind: once released, its server has ended and
/// its socket file is gone (tmux itself leaves the file).
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"))
struct TmuxCleanupTests {
    /// A shell session (waits for its prompt) and a session running a command.
    @Test(arguments: [nil, "exec sleep 600"])
    func aReleasedDriverLeavesNoServerAndNoSocket(command: String?) throws {
        var tmux: Tmux? = try Tmux(columns: 40, rows: 10, command: command)
        let socket = try #require(tmux?.socket)
        let server = try #require(tmux?.server)
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(ProcessState.isRunning(server))
        #expect(!socket.contains("/tmux-\(getuid())/"), "the socket is a path of our own")
        tmux = nil
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is left behind")
        #expect(!ProcessState.isRunning(server), "the tmux server is still running")
    }
}
