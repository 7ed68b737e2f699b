/// Loaders: read-through with one load per key, stale-while-revalidate, stale-if-error with
/// back-off, and warming.
extension Cache {
    /// The value for `key`: the cached one if live, else the loader's result, which is stored
    /// with the namespace policy. However many callers wait on the same key, the loader runs
    /// once. See ``read(_:refreshAfter:orLoad:)`` for the details.
    public func value(
        for key: Key, refreshAfter: Duration? = nil, orLoad loader: @escaping @Sendable (Key) async throws -> Value
    ) async throws -> Value {
        try await read(key, refreshAfter: refreshAfter, orLoad: loader, on: nil).value
    }

    /// The value for `key`, flagged stale when it came from the stale window:
    /// - a live cached value is returned at once; if it is older than `refreshAfter`, a
    ///   background load refreshes it (stale-while-revalidate);
    /// - on a miss, the loader runs once per key however many callers wait (single flight) and
    ///   its result is stored;
    /// - when the loader throws, a value within its stale window is returned with `isStale`
    ///   (stale-if-error), else the loader's error is thrown;
    /// - after a failure the key backs off (``StoreOptions/loadBackoff``): until the retry time
    ///   callers get the stale value or the last error without calling the loader;
    /// - when the store cannot be reached (``CacheError/unreachable(endpoint:reason:)``: a
    ///   Redis server that is down), the read is a miss: the loader answers (its value is not
    ///   stored) and the loader's own error is what a failure throws.
    ///
    /// Its file reads and writes run on the calling task; ``AsyncCache``'s loaders run them on
    /// a ``BlockingIOPool``.
    public func read(
        _ key: Key, refreshAfter: Duration? = nil, orLoad loader: @escaping @Sendable (Key) async throws -> Value
    ) async throws -> StaleRead<Value> {
        try await read(key, refreshAfter: refreshAfter, orLoad: loader, on: nil)
    }

    /// ``read(_:refreshAfter:orLoad:)`` with its file calls on `pool` (inline when `nil`).
    func read(
        _ key: Key, refreshAfter: Duration?, orLoad loader: @escaping @Sendable (Key) async throws -> Value,
        on pool: BlockingIOPool?
    ) async throws -> StaleRead<Value> {
        guard record.policy.isEnabled else {
            return StaleRead(value: try await loader(key), isStale: false, expiresAt: nil)
        }
        let canonical = try canonicalKey(key)
        let now = clock.nowMilliseconds()
        var cached = liveInMemory(canonical, now: now)
        if cached == nil { cached = try await lookUp(canonical, now: now, allowStale: false, on: pool) }
        if let found = cached {
            found.count(in: counters, at: now)
            if let refreshAfter, now.subtractingClamped(found.writtenAt) >= refreshAfter.milliseconds,
                runtime.backoff.blockingError(for: canonical, now: now) == nil
            {
                _ = startLoad(key, canonical: canonical, loader: loader, on: pool)
            }
            return found.read(at: now)
        }
        if let error = runtime.backoff.blockingError(for: canonical, now: now) {
            return try await staleOrThrow(canonical, error, on: pool)
        }
        do {
            let loaded = try await startLoad(key, canonical: canonical, loader: loader, on: pool).value
            counters.miss()
            guard let value = loaded as? Value else {
                // Another handle on this namespace with another value type loaded the key.
                return StaleRead(value: try await loader(key), isStale: false, expiresAt: nil)
            }
            return StaleRead(value: value, isStale: false, expiresAt: nil)
        } catch {
            return try await staleOrThrow(canonical, error, on: pool)
        }
    }

    /// Loads `keys` that are not cached, at most `concurrency` at a time, and reports what
    /// happened. Failures are counted, not thrown.
    public func warm(
        _ keys: [Key], concurrency: Int = 4, using loader: @escaping @Sendable (Key) async throws -> Value
    ) async -> WarmingReport {
        await warm(keys.map { ($0, loader) }, concurrency: concurrency, on: nil)
    }

    /// Warms each key with its own loader, at most `concurrency` at a time, its file calls on
    /// `pool` (inline when `nil`).
    func warm(
        _ loads: [(key: Key, loader: @Sendable (Key) async throws -> Value)], concurrency: Int,
        on pool: BlockingIOPool?
    ) async -> WarmingReport {
        var report = WarmingReport()
        await withTaskGroup(of: WarmingReport.self) { group in
            var next = loads.startIndex
            func addNext() {
                guard next < loads.endIndex else { return }
                let (key, loader) = loads[next]
                next += 1
                group.addTask { await warmOne(key, loader: loader, on: pool) }
            }
            for _ in 0..<max(1, concurrency) { addNext() }
            for await outcome in group {
                report.add(outcome)
                addNext()
            }
        }
        return report
    }

    // MARK: Private

    private func warmOne(
        _ key: Key, loader: @escaping @Sendable (Key) async throws -> Value, on pool: BlockingIOPool?
    ) async -> WarmingReport {
        do {
            if try await io(pool, { [self] in try contains(key) }) { return WarmingReport(alreadyCached: 1) }
            let read = try await read(key, refreshAfter: nil, orLoad: loader, on: pool)
            return read.isStale ? WarmingReport(failed: 1) : WarmingReport(loaded: 1)
        } catch {
            return WarmingReport(failed: 1)
        }
    }

    /// The single-flight task loading `key`: it calls the loader, stores the value, and keeps
    /// the key's back-off up to date.
    private func startLoad(
        _ key: Key, canonical: String, loader: @escaping @Sendable (Key) async throws -> Value,
        on pool: BlockingIOPool?
    ) -> Task<any Sendable, any Error> {
        runtime.loads.task(for: canonical) { [self] in
            let value: Value
            let started = ContinuousClock.now
            do {
                value = try await loader(key)
            } catch {
                counters.loadFailed(milliseconds: Self.milliseconds(since: started))
                runtime.backoff.recordFailure(
                    canonical, error: error, now: clock.nowMilliseconds(), backoff: backend.options.loadBackoff)
                throw error
            }
            counters.loadSucceeded(milliseconds: Self.milliseconds(since: started))
            runtime.backoff.recordSuccess(canonical)
            do {
                try await io(pool) { [self] in try set(value, for: key) }
            } catch {
                backend.options.logger.warning(
                    "a loaded value could not be cached",
                    metadata: ["namespace": "\(namespace)", "key": "\(canonical)", "error": "\(error)"])
            }
            return value
        }
    }

    /// Runs `body` on `pool`, or at once on the calling task when `pool` is `nil`.
    private func io<T: Sendable>(_ pool: BlockingIOPool?, _ body: @escaping @Sendable () throws -> T) async throws
        -> T
    {
        guard let pool else { return try body() }
        return try await pool.run(body)
    }

    /// The stored entry of `key`, read on `pool`; `nil` (a miss) when the store cannot be
    /// reached (a Redis server that is down): a loader read then calls the loader, since the
    /// cache is an optimisation the app must keep working without.
    private func lookUp(_ key: String, now: Int64, allowStale: Bool, on pool: BlockingIOPool?) async throws -> Found? {
        do {
            return try await io(pool) { [self] in try find(key, now: now, allowStale: allowStale) }
        } catch CacheError.unreachable(let endpoint, let reason) {
            backend.options.logger.warning(
                "the cache is unreachable: the loader answers",
                metadata: ["namespace": "\(namespace)", "endpoint": "\(endpoint)", "reason": "\(reason)"])
            return nil
        }
    }

    /// A live value of `key` in the memory tier (a read that needs no file).
    private func liveInMemory(_ key: String, now: Int64) -> Found? {
        guard let entry = runtime.memory?.get(key, now: now, counting: true), !entry.isExpired(at: now),
            let value = entry.value(as: Value.self)
        else { return nil }
        return Found(value: value, writtenAt: entry.writtenAt, expiresAt: entry.expiresAt, fromFile: false)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).fractionalMilliseconds
    }

    /// The stale value for a read whose load failed (counted as a stale hit), else the error
    /// (counted as a miss).
    private func staleOrThrow(_ canonical: String, _ error: any Error, on pool: BlockingIOPool?) async throws
        -> StaleRead<Value>
    {
        let now = clock.nowMilliseconds()
        guard let found = try await lookUp(canonical, now: now, allowStale: true, on: pool) else {
            counters.miss()
            throw error
        }
        found.count(in: counters, at: now)
        return found.read(at: now)
    }
}

/// What ``Cache/warm(_:concurrency:using:)`` did.
public struct WarmingReport: Sendable, Hashable {
    /// Keys loaded and stored.
    public var loaded = 0
    /// Keys that were already cached (not loaded).
    public var alreadyCached = 0
    /// Keys whose load failed.
    public var failed = 0

    mutating func add(_ other: WarmingReport) {
        loaded += other.loaded
        alreadyCached += other.alreadyCached
        failed += other.failed
    }
}
