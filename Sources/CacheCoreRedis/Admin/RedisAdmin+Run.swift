import CacheCore
import Foundation

extension RedisAdmin {
    /// Runs `target`: audits it, moves what it removes into its trash (a TTL action changes
    /// the entries' times, keeping the old ones), and returns what it removed (or changed).
    /// Every host's near cache drops the moved or changed entries by push.
    ///
    /// The action goes namespace by namespace (so, on a cluster, slot by slot): its record
    /// (store-wide) is written first with the namespaces it acts on, and what it does in each
    /// is written in that namespace's ledger by the same script that does it. A clear switches
    /// each namespace to a new generation at once (nothing is lost to a stop or a kill: the
    /// old generation is the trash), then counts what it emptied, reporting progress; a stop
    /// asked for meanwhile takes effect before the next namespace. Other actions move (or
    /// change) entries in atomic batches of 1,000, so a killed action's ledgers say what it
    /// moved; `progress` hears after every batch and stops the action by returning `false`.
    /// The record's counts are the ledgers' sum.
    @discardableResult
    public func run(
        _ target: AdminTarget, origin: ActionOrigin = .current, progress: ((ActionProgress) -> Bool)? = nil
    ) throws -> ActionOutcome {
        guard !store.isReadOnly else { throw CacheError.readOnly(path: store.endpoint) }
        let selector = try selector(of: target)
        try purgeTrash()
        let total = try preview(target).entries
        let namespaces = try target.namespace.map { [$0] } ?? store.namespaceNames()
        let id = try log.begin(target, namespaces: namespaces, restores: nil, origin: origin, now: store.now())
        var state = RunState(id: id, total: total, progress: progress)
        do {
            for name in namespaces where !state.isCancelled {
                let scoped = selector.scoped(to: name)
                try whileSlotStays(name) {
                    if case .expiry(_, let change) = target {
                        try changeExpiry(scoped, change, state: &state)
                    } else if case .namespace = scoped {
                        try clear(name, state: &state)
                    } else {
                        try move(scoped, state: &state)
                    }
                }
            }
        } catch {
            try? finish(state, namespaces: namespaces, selector: selector)
            throw stopped(by: error, after: state, target: target)
        }
        try finish(state, namespaces: namespaces, selector: selector)
        return ActionOutcome(
            auditID: id, removed: state.done, bytes: state.bytes, isUndoable: true, isCancelled: state.isCancelled)
    }

    /// `error` of an action that had already removed or changed entries, saying how many (a
    /// refusal at `maxmemory` part way must not read as if nothing had happened).
    private func stopped(by error: any Error, after state: RunState, target: AdminTarget) -> any Error {
        guard state.done > 0 else { return error }
        let reason =
            if case CacheError.serverOutOfMemory(_, let message) = error {
                "out of memory (maxmemory): \(message)"
            } else {
                "\(error)"
            }
        let verb = if case .expiry = target { "changing" } else { "removing" }
        return CacheError.serverError(
            endpoint: store.endpoint,
            message: "stopped after \(verb) \(state.done) of \(max(state.total, state.done)) entries "
                + "(action #\(state.id); `restore \(state.id)` undoes them): \(reason)")
    }

    /// Moves namespace `name` to a new generation, keeping the old one until the retention ends.
    private func clear(_ name: String, state: inout RunState) throws {
        let keys = store.keys
        // The ledger names the kept generation in the same step as the switch, so an undo is
        // recorded before the clear takes effect (at `maxmemory` too).
        let reply = try store.run(
            .clear, keys: [keys.namespace(name), keys.kept(name), keys.ledger(state.id, namespace: name)],
            arguments: [
                RedisArgument(RedisKeys.escape(name)), RedisArgument(store.now()),
                RedisArgument(store.now() + retention), RedisArgument(retention),
            ])
        guard let kept = reply.integer, kept > 0 else { return }
        // Counted after the switch: the kept generation no longer changes (but for expiry).
        try forEachBatch(namespace: name, generation: kept, prefix: "") { batch in
            let measured = try measure(batch, generation: kept)
            try log.add(state.id, namespace: name, entries: measured.keys.count, bytes: measured.bytes)
            state.add(measured.keys, bytes: measured.bytes, namespace: name)
            state.report()
            return true
        }
    }

    /// Moves the selected entries into the action's trash, batch by batch.
    private func move(_ selector: InvalidationSelector, state: inout RunState) throws {
        let keys = store.keys
        try forEachBatch(of: selector) { batch in
            let reply = try store.run(
                .trashEntries, keys: [keys.namespace(batch.namespace), keys.ledger(state.id, namespace: batch.namespace)],
                arguments: [
                    RedisArgument(keys.entries(batch.namespace)), RedisArgument(keys.tags(batch.namespace)),
                    RedisArgument(keys.trash(state.id, namespace: batch.namespace)), RedisArgument(retention),
                    RedisArgument(batch.tag ?? ""),
                ] + batch.keys.map { RedisArgument($0) })
            return try record(reply, of: batch.namespace, in: &state)
        }
    }

    /// Adds what a batch's script says it moved or changed (`{count, bytes, keys}`) to
    /// `state`, keeps the record's sample keys current, and reports progress; returns
    /// whether to go on.
    func record(_ reply: RedisReply, of namespace: String, in state: inout RunState) throws -> Bool {
        let parts = reply.array ?? []
        let keys = (parts.count == 3 ? parts[2].array ?? [] : []).compactMap(\.string)
        let bytes = parts.count == 3 ? Int(parts[1].integer ?? 0) : 0
        state.add(keys, bytes: bytes, namespace: namespace)
        if state.samplesChanged {
            try log.set(state.id, [("samples", RedisArgument(try RedisAuditLog.json(state.samples)))])
            state.samplesChanged = false
        }
        return state.report()
    }

    /// Marks the record finished with the sum of its ledgers in `namespaces` and drops this
    /// process's memory copies of what was removed (memory-only tiers are not on the server;
    /// other tiers heard the push already).
    private func finish(_ state: RunState, namespaces: [String], selector: InvalidationSelector) throws {
        let ledgers = try log.ledgers(state.id, namespaces: namespaces)
        var fields: [(String, RedisArgument)] = [
            ("entries", RedisArgument(ledgers.reduce(0) { $0 + $1.entries })),
            ("bytes", RedisArgument(ledgers.reduce(0) { $0 + $1.bytes })), ("finished", RedisArgument(store.now())),
        ]
        if !state.samples.isEmpty { fields.append(("samples", RedisArgument(try RedisAuditLog.json(state.samples)))) }
        try log.set(state.id, fields)
        for runtime in store.allRuntimes { runtime.drop(selector) }
    }
}

extension InvalidationSelector {
    /// The part of the selector in namespace `name`: what an action does there.
    func scoped(to name: String) -> InvalidationSelector {
        switch self {
        case .all: .namespace(name)
        case .tag(let tag, nil): .tag(tag, namespace: name)
        default: self
        }
    }
}

/// The state of an action while it runs.
struct RunState {
    let id: Int64
    let total: Int
    let progress: ((ActionProgress) -> Bool)?
    var done = 0
    var bytes = 0
    var isCancelled = false
    /// Up to five moved keys, as `namespace/key`.
    var samples: [String] = []
    var samplesChanged = false

    mutating func add(_ keys: [String], bytes: Int, namespace: String) {
        done += keys.count
        self.bytes += bytes
        if samples.count < 5 && !keys.isEmpty {
            samples += keys.prefix(5 - samples.count).map { "\(namespace)/\($0)" }
            samplesChanged = true
        }
    }

    /// Tells the progress handler how far the action is; returns whether to go on (and
    /// remembers a stop).
    @discardableResult
    mutating func report() -> Bool {
        if let progress, !isCancelled, !progress(ActionProgress(done: done, total: max(total, done))) {
            isCancelled = true
        }
        return !isCancelled
    }
}
