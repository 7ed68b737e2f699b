import Foundation

/// A private `redis-server` for one test suite: on a free loopback port, with no persistence,
/// in its own temporary folder; stopped by ``stop()`` or when released.
public final class RedisServer: @unchecked Sendable {
    public let port: Int
    public let password: String?
    private let process: Process
    private let folder: URL

    /// `redis://127.0.0.1:PORT/0` (with the password, when the server has one).
    public var url: String { "redis://" + (password.map { ":\($0)@" } ?? "") + "127.0.0.1:\(port)/0" }

    /// Whether `redis-server` can be started here.
    public static var isInstalled: Bool { executable("redis-server") != nil }

    /// Whether a missing `redis-server` fails the test rather than skipping it (in CI, where
    /// `.ci/run` installs it).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Starts a server and waits (up to 10 s) until it accepts connections.
    /// `maxMemory` (e.g. `"1mb"`) comes with the `noeviction` policy, so writes past it fail;
    /// `arguments` adds options (a cluster node's).
    public init(password: String? = nil, maxMemory: String? = nil, arguments: [String] = []) throws {
        guard let executable = Self.executable("redis-server") else { throw Failure("redis-server is not installed") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.password = password
        let extra = arguments
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try Self.freePort()
            var arguments: [String] = [
                "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", folder.path, "--logfile", folder.appendingPathComponent("log").path,
            ]
            if let password { arguments += ["--requirepass", password] }
            if let maxMemory { arguments += ["--maxmemory", maxMemory, "--maxmemory-policy", "noeviction"] }
            arguments += extra
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try ProcessLauncher.run(process)
            // The port was free when chosen; another server may have taken it since, so the
            // one answering must be this process.
            if Self.waitUntilListening(port: port, process: process),
                let info = try? Self.redisCLI(["-h", "127.0.0.1", "-p", "\(port)", "INFO", "server"], password: password),
                info.contains("process_id:\(process.processIdentifier)\r") || info.contains("process_id:\(process.processIdentifier)\n")
            {
                self.port = port
                self.process = process
                return
            }
            process.terminate()
            process.waitUntilExit()
            lastError = Failure("redis-server did not start on port \(port): \(Self.log(in: folder))")
        }
        throw lastError ?? Failure("redis-server did not start")
    }

    deinit { stop() }

    /// Stops the server (at once, like a crash: `SIGKILL`) and removes its folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether the server process still runs.
    public var isRunning: Bool { process.isRunning }

    /// Runs `redis-cli` against the server and returns what it printed.
    @discardableResult
    public func cli(_ arguments: String...) throws -> String { try cli(arguments) }

    /// Runs `redis-cli` with `arguments` against the server and returns what it printed.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        try Self.redisCLI(["-h", "127.0.0.1", "-p", "\(port)"] + arguments, password: password)
    }

    /// Runs `redis-cli` with `arguments` and returns what it printed.
    static func redisCLI(_ arguments: [String], password: String? = nil) throws -> String {
        guard let executable = Self.executable("redis-cli") else { throw Failure("redis-cli is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let password { process.environment = ["REDISCLI_AUTH": password] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try ProcessLauncher.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Private

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"])
            .map { ($0 as NSString).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket() failed") }
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw Failure("could not find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until the port accepts a connection, the process exits, or 10 s pass.
    private static func waitUntilListening(port: Int, process: Process) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline && process.isRunning {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(socket)
            if connected { return true }
            usleep(10_000)
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func log(in folder: URL) -> String {
        let text = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? "no log"
    }
}
