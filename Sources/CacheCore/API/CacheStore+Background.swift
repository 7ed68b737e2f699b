import Foundation
import Synchronization

/// The per-namespace runtimes, and the background work a memory tier needs: coherence with
/// other processes and write-behind flushes.
extension CacheStore {
    /// What runs while a namespace with a memory tier is open: the coherence monitor, driven
    /// by a thread of its own (never the Swift concurrency pool, which an app may keep busy).
    final class Background: Sendable {
        let monitor: CoherenceMonitor
        let worker: BackgroundWorker

        init(monitor: CoherenceMonitor, worker: BackgroundWorker) {
            self.monitor = monitor
            self.worker = worker
        }

        deinit { worker.signalStop() }
    }

    /// Applies other processes' invalidations and rewrites to this process's memory tiers
    /// now. It also happens every ``StoreOptions/coherenceInterval`` in the background.
    public func synchronize() throws {
        guard let monitor = background.withLock({ $0?.monitor }) else { return }
        try monitor.synchronize(allRuntimes)
    }

    var allRuntimes: [NamespaceRuntime] { runtimes.withLock { Array($0.values) } }

    /// The runtime shared by handles on `namespace`, made (or remade, when its tiers changed)
    /// on demand. The first namespace with a memory tier starts the background work.
    ///
    /// A read-only store cannot register its memory tier (see ``Schema/memoryTierRegistry``),
    /// so it would never hear of other processes' removals: its hybrid namespaces read the
    /// file only, and it runs no coherence check (its memory-only namespaces are its own).
    func runtime(for namespace: NamespaceRecord) throws -> NamespaceRuntime {
        let keepsMemory = namespace.policy.tiers == .memory || (namespace.policy.tiers.usesMemory && !isReadOnly)
        let runtime = NamespaceRuntime.shared(for: namespace, keepsMemory: keepsMemory, in: runtimes) {
            counters(for: namespace)
        }
        if runtime.memory != nil && !isReadOnly {
            try startBackground()
            if namespace.policy.tiers.usesDisk { accessLog.takeMemoryHits(of: runtime) }
        }
        return runtime
    }

    /// Writes the sets waiting in write-behind namespaces: all of them when `force`, else
    /// those whose flush interval has passed. A failed flush keeps the sets for the next try.
    func flushPendingWrites(force: Bool) throws {
        let now = now()
        for runtime in allRuntimes {
            guard let interval = runtime.writeBehind, !runtime.pending.isEmpty else { continue }
            let writes = runtime.pending.take(now: now, interval: interval.milliseconds, force: force)
            guard !writes.isEmpty else { continue }
            do {
                try write(writes, in: runtime)
            } catch {
                runtime.pending.restore(writes)
                throw error
            }
        }
    }

    /// Stops the background thread, waits for a check in progress (outside the lock the
    /// check itself takes) and withdraws the memory-tier registration. A registration that
    /// cannot be withdrawn now (the disk is full) is removed later by maintenance, once this
    /// process has ended; until then others only journal a little more than needed.
    func stopBackground() {
        guard let worker = background.withLock({ $0?.worker }) else { return }
        worker.stop()
        do {
            try database.write(usingReserve: true) { try $0.unregisterMemoryTier(origin: origin) }
        } catch {
            options.logger.warning("could not withdraw the memory-tier registration", metadata: ["error": "\(error)"])
        }
    }

    private func startBackground() throws {
        try background.withLock { background in
            guard background == nil else { return }
            // Registered before the monitor reads the journal's end and before any copy is
            // kept, so every later removal by another instance is journaled for this one.
            // One small row that coherence depends on: it may use the room kept for removals.
            try database.write(usingReserve: true) {
                try $0.registerMemoryTier(
                    origin: origin, pid: getpid(), host: ProcessInfo.processInfo.hostName, now: now())
            }
            let monitor = try CoherenceMonitor(path: path, origin: origin, busyTimeout: options.busyTimeout)
            let interval = options.coherenceInterval
            let worker = BackgroundWorker(name: "CacheCore coherence", firstDelay: interval) { [weak self] in
                self?.tick()
                return interval
            }
            background = Background(monitor: monitor, worker: worker)
        }
    }

    private func tick() {
        do {
            try synchronize()
            if !isReadOnly { try flushPendingWrites(force: false) }
        } catch {
            options.logger.warning("background cache work failed", metadata: ["error": "\(error)"])
        }
    }
}
