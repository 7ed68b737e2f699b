import CacheDeckTestSupport
import Foundation

/// The package's executables (`cachedeck-testhelper`, `cachedeck`), built by `swift test`
/// next to the test bundle.
enum HelperBinary {
    static let name = "cachedeck-testhelper"

    /// The path of the executable `name`; for the helper, `CACHEDECK_TESTHELPER` overrides
    /// the search.
    static func path(of name: String = name) throws -> String {
        try builtExecutable(name, override: name == Self.name ? "CACHEDECK_TESTHELPER" : nil)
    }
}

/// The value the helper's `write` command stores under PREFIX-index (same formula).
func helperValue(prefix: String, index: Int, pad: Int) -> String {
    "\(prefix)-\(index):" + String(repeating: "x", count: pad + index % 7)
}

/// A running helper whose stdout lines and stderr text are collected in the background.
final class HelperProcess {
    /// How long any wait may last before the test fails instead of hanging.
    static let timeout: TimeInterval = 60

    struct Exit {
        let status: Int32
        let signalled: Bool
        let stderr: String
        var succeeded: Bool { !signalled && status == 0 }
    }

    let arguments: [String]
    private let process = Process()
    private let input = Pipe()
    private let stdout = OutputCollector()
    private let stderr = OutputCollector()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the executable `program` (the test helper unless told) with `arguments`;
    /// `unprivileged` runs it as a user that file permissions apply to (see ``Unprivileged``).
    init(_ arguments: [String], program: String = HelperBinary.name, unprivileged: Bool = false) throws {
        self.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        try Unprivileged.prepare(
            process, program: try HelperBinary.path(of: program), arguments: arguments, unprivileged: unprivileged)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try ProcessLauncher.run(process)
        stdout.start(reading: output.fileHandleForReading)
        stderr.start(reading: errors.fileHandleForReading)
    }

    deinit {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Whether the process has ended.
    var hasExited: Bool { !process.isRunning }

    /// The complete stdout lines so far.
    var lines: [String] { stdout.lines }

    /// Waits until a stdout line satisfies `predicate`; throws if the helper ends or times out first.
    func waitForLine(_ description: String, where predicate: @escaping (String) -> Bool) throws {
        let found = stdout.wait(timeout: Self.timeout) { lines, finished in
            lines.contains(where: predicate) || finished
        }
        guard found, stdout.lines.contains(where: predicate) else {
            throw HelperFailure("helper \(arguments) never printed \(description); stderr: \(stderr.text)")
        }
    }

    func waitForLine(_ line: String) throws {
        try waitForLine("'\(line)'") { $0 == line }
    }

    /// Closes the helper's stdin, which releases a `--barrier` (closing cannot raise SIGPIPE
    /// in the test process the way writing to a helper that died could).
    func release() {
        try? input.fileHandleForWriting.close()
    }

    func kill(signal: Int32 = SIGKILL) {
        _ = Foundation.kill(process.processIdentifier, signal)
    }

    /// Waits for the helper to exit and for its output to be fully read.
    func waitForExit() throws -> Exit {
        guard exited.wait(timeout: .now() + Self.timeout) == .success else {
            kill()
            throw HelperFailure("helper \(arguments) did not exit within \(Int(Self.timeout)) s")
        }
        let drained = stdout.wait(timeout: Self.timeout) { $1 } && stderr.wait(timeout: Self.timeout) { $1 }
        guard drained else { throw HelperFailure("helper \(arguments) exited but its output never closed") }
        return Exit(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stderr: stderr.text)
    }
}

struct HelperFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads a pipe to its end on a dedicated thread (never the Swift concurrency pool, which
/// the tests block while they wait), keeping the text and its complete lines.
final class OutputCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var complete: [String] = []
    private var partial = Data()
    private var all = Data()
    private var finished = false

    func start(reading handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.withLock {
                    append(chunk)
                    condition.broadcast()
                }
                if chunk.isEmpty { return }
            }
        }
        thread.start()
    }

    var text: String { condition.withLock { String(decoding: all, as: UTF8.self) } }

    /// Complete (newline-terminated) lines.
    var lines: [String] { condition.withLock { complete } }

    /// Waits until `predicate(lines, finished)` holds; `false` on timeout.
    func wait(timeout: TimeInterval, until predicate: ([String], Bool) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(complete, finished) {
            if !condition.wait(until: deadline) { return predicate(complete, finished) }
        }
        return true
    }

    /// Called with the lock held; an empty chunk is the end of the pipe.
    private func append(_ chunk: Data) {
        guard !chunk.isEmpty else {
            finished = true
            return
        }
        all.append(chunk)
        partial.append(chunk)
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[partial.index(after: newline)...])
        }
    }
}
