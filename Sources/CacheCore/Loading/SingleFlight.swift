import Synchronization

/// At most one load per key at a time: later callers for the same key await the first one's
/// task instead of starting their own.
final class SingleFlight: Sendable {
    private let tasks = Mutex<[String: Task<any Sendable, any Error>]>([:])

    /// The task loading `key`: the running one, or a new one running `operation`.
    func task(
        for key: String, operation: @escaping @Sendable () async throws -> any Sendable
    ) -> Task<any Sendable, any Error> {
        tasks.withLock { tasks in
            if let running = tasks[key] { return running }
            let task = Task<any Sendable, any Error> {
                defer { self.finish(key) }
                return try await operation()
            }
            tasks[key] = task
            return task
        }
    }

    /// Whether a load of `key` is running.
    func isLoading(_ key: String) -> Bool { tasks.withLock { $0[key] != nil } }

    private func finish(_ key: String) {
        _ = tasks.withLock { $0.removeValue(forKey: key) }
    }
}
