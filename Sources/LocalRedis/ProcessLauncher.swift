import Foundation
import Synchronization

/// Starts the tests' child processes one at a time. Foundation's `Process.run()` on Linux
/// has crashed (a bad pointer in a `memcpy` inside it) while suites running in parallel
/// started processes at the same moment; the lock keeps those starts apart.
public enum ProcessLauncher {
    private static let lock = Mutex(())

    /// Runs `process.run()` while no other test starts a process.
    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
