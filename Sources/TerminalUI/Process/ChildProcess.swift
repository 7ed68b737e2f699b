#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Programs the console starts (the pager, `tmux show-options`): by `posix_spawnp` with an
/// argument vector, never through a shell, and waited for. Foundation's `Process` is not used:
/// its start has crashed when threads started processes at the same moment.
package enum ChildProcess {
    /// Why a program did not start: the `errno` of `posix_spawnp`.
    package struct StartError: Error, CustomStringConvertible {
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    /// How the child's standard streams are set up.
    package enum Streams {
        /// The terminal's, and the child has it to itself: the console ignores Ctrl-C and
        /// Ctrl-\ meanwhile (they are the child's), as `system(3)` does.
        case foreground
        /// Standard output captured; input and errors `/dev/null`.
        case captured
    }

    /// Runs `arguments` (the first found in `PATH`) and waits for it: its exit status (128 +
    /// the signal when one ended it) and, when `captured`, what it wrote to standard output.
    package static func run(_ arguments: [String], streams: Streams) throws(StartError) -> (
        status: Int32, output: [UInt8]
    ) {
        guard let program = arguments.first else { throw StartError(code: ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var pipeEnds: [Int32] = [-1, -1]
        defer { pipeEnds.filter { $0 >= 0 }.forEach { close($0) } }
        switch streams {
        case .foreground:
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGQUIT)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        case .captured:
            guard pipe(&pipeEnds) == 0 else { throw StartError(code: errno) }
            // The ends stay out of the child but for the dup below.
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let ignoring = streams == .foreground ? IgnoredInterrupts() : nil
        defer { ignoring?.restore() }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let started = posix_spawnp(&child, program, &actions, &attributes, argv, environ)
        guard started == 0 else { throw StartError(code: started) }
        var output: [UInt8] = []
        if streams == .captured {
            close(pipeEnds[1])
            pipeEnds[1] = -1
            output = readAll(pipeEnds[0])
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output)
    }

    /// Everything readable from `descriptor` until end of file.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return output }
            output += chunk[..<count]
        }
    }

    /// SIGINT and SIGQUIT ignored until ``restore()``.
    private struct IgnoredInterrupts {
        private var previousInterrupt = sigaction()
        private var previousQuit = sigaction()

        init() {
            var ignore = sigaction()
            #if canImport(Glibc)
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            #else
            ignore.__sigaction_u.__sa_handler = SIG_IGN
            #endif
            sigemptyset(&ignore.sa_mask)
            sigaction(SIGINT, &ignore, &previousInterrupt)
            sigaction(SIGQUIT, &ignore, &previousQuit)
        }

        func restore() {
            var interrupt = previousInterrupt
            var quit = previousQuit
            sigaction(SIGINT, &interrupt, nil)
            sigaction(SIGQUIT, &quit, nil)
        }
    }
}
