import Foundation

/// Threads of their own for CacheCore's blocking calls (SQLite reads and writes), so that
/// ``AsyncCache`` and ``AsyncCacheStore`` never block a thread of Swift's cooperative pool.
///
/// An `await` on the pool hands the call to one of its threads and suspends the task; the
/// thread runs it and resumes the task. That hop costs a few microseconds (see the README's
/// figures; `cachedeck-bench async` measures it), about a file read's own cost, and buys a
/// cooperative pool that keeps running other tasks while SQLite waits for a lock or the disk.
public final class BlockingIOPool: Sendable {
    /// The pool every async handle uses unless told otherwise: as many threads as cores
    /// (two at least, eight at most), started on first use and kept for the process.
    public static let shared = BlockingIOPool(threads: sharedThreadCount, name: "CacheCore I/O")

    /// The number of threads of ``shared``.
    public static let sharedThreadCount = min(8, max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let queue: JobQueue

    /// Starts `threads` threads named `name`; they end when the pool is released.
    public init(threads: Int, name: String = "CacheCore I/O") {
        queue = JobQueue()
        for index in 0..<max(1, threads) {
            let thread = Thread { [queue] in queue.work() }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    deinit { queue.stop() }

    /// Runs `body` on one of the pool's threads and returns its result. A task cancelled
    /// before its call starts gets `CancellationError` without running it; a started call
    /// runs to its end.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            queue.add {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}

/// The pool's jobs, waited on by its threads.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopped = false

    func add(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs jobs until the pool stops (after the jobs already queued).
    func work() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if stopped { return nil }
            condition.wait()
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
