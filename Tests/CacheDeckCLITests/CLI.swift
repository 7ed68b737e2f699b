import CacheDeckTestSupport
import Foundation

/// The `cachedeck` executable, built by `swift test` next to the test bundle.
enum CacheDeckBinary {
    static let name = "cachedeck"

    /// The binary's path; set `CACHEDECK_BINARY` to override the search.
    static func path() throws -> String { try builtExecutable(name, override: "CACHEDECK_BINARY") }
}

/// The test helper (`cachedeck-testhelper`), built next to `cachedeck`: CacheCore in a
/// process of its own, for running the library as another user.
enum HelperBinary {
    static func path() throws -> String {
        let helper = ((try CacheDeckBinary.path()) as NSString).deletingLastPathComponent + "/cachedeck-testhelper"
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw CLIFailure("\(helper) was not found; build every product first (`swift build --build-tests`)")
        }
        return helper
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What one run of the binary printed and how it ended.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The stderr lines (without the trailing newline).
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// stdout parsed as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }

    /// stdout parsed as a JSON object.
    func object() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw CLIFailure("not a JSON object: \(stdout)") }
        return object
    }
}

/// A run of `cachedeck` (or `executable`) with stdin from /dev/null (not a terminal) and its
/// output in files; `unprivileged` runs it as a user that file permissions apply to.
final class CLIProcess {
    /// How long a run may take before the test fails instead of hanging.
    static let timeout: TimeInterval = 60

    let arguments: [String]
    private let process = Process()
    private let output: String
    private let errors: String
    private let exited = DispatchSemaphore(value: 0)

    init(
        _ arguments: [String], folder: TemporaryFolder, executable: String? = nil, unprivileged: Bool = false
    ) throws {
        self.arguments = arguments
        let id = UUID().uuidString
        output = folder.file("stdout-\(id)")
        errors = folder.file("stderr-\(id)")
        let manager = FileManager.default
        guard manager.createFile(atPath: output, contents: nil), manager.createFile(atPath: errors, contents: nil),
            let out = FileHandle(forWritingAtPath: output), let err = FileHandle(forWritingAtPath: errors),
            let input = FileHandle(forReadingAtPath: "/dev/null")
        else { throw CLIFailure("cannot create the output files in \(folder.path)") }
        let program = try executable ?? CacheDeckBinary.path()
        try Unprivileged.prepare(process, program: program, arguments: arguments, unprivileged: unprivileged)
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try ProcessLauncher.run(process)
    }

    deinit {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
    }

    /// What the process has printed on stdout so far.
    var stdoutSoFar: String { String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self) }

    func signal(_ number: Int32) { _ = kill(process.processIdentifier, number) }

    /// The process's command line as `ps` shows it (`/proc/PID/cmdline`).
    var commandLine: String {
        let raw = FileManager.default.contents(atPath: "/proc/\(process.processIdentifier)/cmdline") ?? Data()
        return String(decoding: raw.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// Waits for the process to end.
    func wait() throws -> CLIResult {
        guard exited.wait(timeout: .now() + Self.timeout) == .success else {
            signal(SIGKILL)
            throw CLIFailure("cachedeck \(arguments) did not exit within \(Int(Self.timeout)) s")
        }
        let manager = FileManager.default
        return CLIResult(
            status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
            stdout: String(decoding: manager.contents(atPath: output) ?? Data(), as: UTF8.self),
            stderr: String(decoding: manager.contents(atPath: errors) ?? Data(), as: UTF8.self))
    }

    /// Waits until stdout satisfies `condition`; throws if the process ends or times out first.
    func waitForOutput(_ description: String, until condition: (String) -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: Self.timeout)
        while !condition(stdoutSoFar) {
            guard process.isRunning, Date() < deadline else {
                throw CLIFailure("cachedeck \(arguments) never printed \(description); stdout: \(stdoutSoFar)")
            }
            usleep(10_000)
        }
    }
}

/// A fresh temporary folder per test, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "cachedeck-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted.
    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
