import Foundation
import TerminalUI
import Testing

/// The one way the console starts programs (the pager, `tmux show-options`): `posix_spawnp`
/// with an argument vector, never a shell.
@Suite struct ChildProcessTests {
    @Test func capturesStandardOutputAndTheExitStatus() throws {
        let echoed = try ChildProcess.run(["printf", "%s|", "a b", "$HOME;", "`x`"], streams: .captured)
        #expect(echoed.status == 0)
        #expect(String(decoding: echoed.output, as: UTF8.self) == "a b|$HOME;|`x`|", "arguments reach it as they are")
        let failed = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2; exit 3"], streams: .captured)
        #expect(failed.status == 3 && failed.output == Array("out\n".utf8))
        let killed = try ChildProcess.run(["sh", "-c", "kill -KILL $$"], streams: .captured)
        #expect(killed.status == 128 + SIGKILL)
    }

    @Test func theChildReadsNothingFromTheConsolesInput() throws {
        let read = try ChildProcess.run(["sh", "-c", "cat; echo done"], streams: .captured)
        #expect(read.status == 0 && read.output == Array("done\n".utf8))
    }

    @Test func aMissingProgramSaysWhy() {
        #expect {
            try ChildProcess.run(["cachedeck-no-such-program"], streams: .captured)
        } throws: { error in
            (error as? ChildProcess.StartError)?.code == ENOENT
                && "\(error)" == "No such file or directory"
        }
    }
}
