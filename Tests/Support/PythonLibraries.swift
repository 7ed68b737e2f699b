import Foundation

/// A Python virtual environment with python-diskcache, requests-cache and Django from PyPI,
/// made once in the temporary folder and reused (a `ready` file marks it complete). `nil`
/// when python3, venv or PyPI is unavailable: tests that need it are skipped, unless
/// `CI=true`, where they fail instead.
public enum PythonLibraries {
    /// The packages installed, pinned to the majors the formats were checked against.
    public static let packages = ["diskcache>=5,<6", "requests-cache>=1,<2", "Django>=4,<6"]

    /// The environment's python, once made.
    public static let python: String? = {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("cachedeck-foreign-venv-1")
        let python = folder + "/bin/python"
        if FileManager.default.fileExists(atPath: folder + "/ready") { return python }
        // A folder without `ready` is a build that stopped half-way: start it again.
        try? FileManager.default.removeItem(atPath: folder)
        guard (try? run(["/usr/bin/env", "python3", "-m", "venv", folder])) != nil,
            (try? run([python, "-m", "pip", "install", "-q"] + packages)) != nil
        else { return nil }
        FileManager.default.createFile(atPath: folder + "/ready", contents: Data())
        return python
    }()

    /// Whether tests needing the libraries must run (CI) rather than be skipped.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether the tests needing them run.
    public static var isAvailable: Bool { isRequired || python != nil }

    /// Runs `script` with the environment's python; returns its standard output.
    @discardableResult
    public static func script(_ script: String) throws -> String {
        guard let python else { throw SupportFailure("python-diskcache, requests-cache and Django are not installed") }
        return try run([python, "-c", script])
    }

    /// Runs `arguments`, returning standard output; a non-zero exit throws with its stderr.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try ProcessLauncher.run(process)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SupportFailure(
                "\(arguments.prefix(3).joined(separator: " ")) failed: \(String(decoding: errorData.suffix(2000), as: UTF8.self))")
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}
