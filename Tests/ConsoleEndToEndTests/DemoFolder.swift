import Foundation
import Testing
import CacheDeckTestSupport

/// A temporary folder for one end-to-end test, and the small demo cache (about 2,000
/// entries) the real binary builds in it.
struct DemoFolder {
    let path = NSTemporaryDirectory() + "cachedeck-e2e-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Builds `demo.sqlite` in the folder with `cachedeck demo`; returns its path.
    func demo() throws -> String {
        let file = path + "/demo.sqlite"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ConsoleEndToEndTests.binary)
        process.arguments = ["demo", file, "--scale", "0.02"]
        process.standardOutput = FileHandle.nullDevice
        try ProcessLauncher.run(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return file
    }
}
