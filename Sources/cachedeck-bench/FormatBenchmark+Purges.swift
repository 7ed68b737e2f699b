import CSQLite
import CacheCore
import Foundation
import Synchronization

extension FormatBenchmark {
    /// Rows: selective purges of the main namespace (prefix, tag, marked keys, a filter) and
    /// their undo, each as entries per second, and whether preview, removal and undo agree.
    func measurePurges() throws {
        let name = FormatFilePlan.namespace
        try purge(
            "prefix \(FormatFilePlan.prefix)", where: plan.hasPrefix,
            target: { .invalidate(.prefix(namespace: name, prefix: FormatFilePlan.prefix)) })
        try purge(
            "tag \(FormatFilePlan.tag)", where: plan.isTagged,
            target: { .invalidate(.tag(FormatFilePlan.tag, namespace: name)) })
        let marked = plan.keys(where: plan.isMarked)
        try purge(
            "\(Format.grouped(marked.count)) marked keys", where: plan.isMarked,
            target: { .invalidate(.keys(namespace: name, keys: marked)) })
        // No admin target takes a filter: the console collects the matching keys, then
        // invalidates them; the rate includes the collection.
        try purge(
            "filter '\(FormatFilePlan.filter)' (keys collected)", where: plan.matchesFilter,
            target: { .invalidate(.keys(namespace: name, keys: try matchingKeys(FormatFilePlan.filter))) })
    }

    /// Previews, runs and undoes the action `target` builds (timing the build and the run
    /// together), checking the entries `selected` names against the preview, the removal,
    /// the restore and what reads return after each.
    private func purge(_ label: String, where selected: (Int) -> Bool, target: () throws -> AdminTarget) throws {
        let name = FormatFilePlan.namespace
        let expected = plan.count(where: selected)
        let samples = plan.sampleKeys(20, where: selected)
        progress("Purging \(label): \(Format.grouped(expected)) entries…")
        let previewed = try console.admin.preview(try target()).entries
        var batches = 0
        let (outcome, runTime) = try timed {
            try console.admin.run(
                try target(),
                progress: { _ in
                    batches += 1
                    return true
                })
        }
        let goneForReads = try samples.allSatisfy { try !isReadable($0) }
        let left = try console.inspector.namespace(name).entryCount
        let (restored, undoTime) = try timed { try console.admin.restore(outcome.auditID) }
        let backForReads = try samples.allSatisfy { try isReadable($0) }
        let back = try console.inspector.namespace(name).entryCount

        let raw = try rawRowMoves(of: plan.keys(where: selected))
        record(
            rateRow(
                "invalidate \(label)", entries: outcome.removed, nanoseconds: runTime, raw: raw.move, batches: batches))
        record(rateRow("  its undo", entries: restored, nanoseconds: undoTime, raw: raw.back))
        let agree =
            previewed == expected && outcome.removed == expected && restored == expected && goneForReads
            && backForReads && left == plan.entries - expected && back == plan.entries
        record(
            GoalRow(
                measure: "  written = previewed = removed = restored; reads, count",
                figure: Format.agreement(expected, previewed, outcome.removed, restored)
                    + "; reads \(goneForReads ? "miss" : "HIT")→\(backForReads ? "hit" : "MISS"); "
                    + "count \(Format.grouped(left))→\(Format.grouped(back))",
                goal: "all agree", verdict: Verdict(agree)))
    }

    /// `123,456 entries/s (0.8 s in 3 batches), 0.91× raw SQLite` against at least 50,000
    /// entries/s and 0.8× raw SQLite's rate moving the same rows (`raw`: entries/s), issue #26.
    private func rateRow(
        _ measure: String, entries: Int, nanoseconds: Double, raw: Double, batches: Int? = nil
    ) -> GoalRow {
        let rate = Double(entries) / (nanoseconds / 1e9)
        return GoalRow(
            measure: measure,
            figure: "\(Format.grouped(Int(rate.rounded()))) entries/s (\(Format.grouped(entries)) in "
                + String(format: "%.2f s", nanoseconds / 1e9) + (batches.map { " in \($0) batches" } ?? "")
                + String(format: "), %.2f× raw SQLite's ", rate / raw)
                + "\(Format.grouped(Int(raw.rounded())))/s",
            goal: "≥ 50,000/s and ≥ 0.8× raw", verdict: Verdict(rate >= 50_000 && rate >= 0.8 * raw))
    }

    /// Raw SQLite's rates (entries/s) moving the entries of `keys` in the main namespace out of
    /// it and back, each as one statement in one transaction, the way an action and its undo
    /// move them: by rewriting `namespace_id` (here to an id no namespace has), every index
    /// and the tag trigger following, on CacheCore's own file with its writer's page cache and
    /// `secure_delete`. Each statement selects its rows as CacheCore's batches do (by key in the
    /// namespace; back: every entry of the other id), so selecting them is timed on both sides.
    /// Counters, the audit log and the trash partition's row are not written.
    private func rawRowMoves(of keys: [String]) throws -> (move: Double, back: Double) {
        let connection = try RawConnection(path: app.path)
        try connection.execute("PRAGMA cache_size = -32768; PRAGMA secure_delete = FAST")
        let namespaceID = try connection.namespaceID(FormatFilePlan.namespace)
        let json = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
        let move = try connection.prepare(
            """
            UPDATE entries SET namespace_id = ?2 WHERE id IN (
                SELECT e.id FROM json_each(?1) j CROSS JOIN entries e ON e.namespace_id = ?3 AND e.key = j.value)
            """)
        let back = try connection.prepare("UPDATE entries SET namespace_id = ?2 WHERE namespace_id = ?1")
        let trash = -namespaceID
        func rate(_ statement: RawStatement, bind: (OpaquePointer) -> Void) throws -> Double {
            let time = try timed {
                try connection.inTransaction {
                    bind(statement.handle)
                    defer { sqlite3_reset(statement.handle) }
                    try connection.check(sqlite3_step(statement.handle), "move")
                    guard sqlite3_changes(connection.handle) == Int32(keys.count) else {
                        throw BenchError("raw SQLite moved \(sqlite3_changes(connection.handle)) of \(keys.count)")
                    }
                }
            }.1
            return Double(keys.count) / (time / 1e9)
        }
        let out = try rate(move) { handle in
            sqlite3_bind_text(handle, 1, json, -1, sqliteTransient)
            sqlite3_bind_int64(handle, 2, trash)
            sqlite3_bind_int64(handle, 3, namespaceID)
        }
        let returned = try rate(back) { handle in
            sqlite3_bind_int64(handle, 1, trash)
            sqlite3_bind_int64(handle, 2, namespaceID)
        }
        return (out, returned)
    }

    /// Whether a point read of `key` in the main namespace returns a value.
    func isReadable(_ key: String) throws -> Bool {
        try reader.dataCache(FormatFilePlan.namespace, key: String.self).get(key) != nil
    }

    /// Rows: clearing the main namespace until readers see it empty (point reads miss, the
    /// Inspector counts 0), and its undo until they see every entry again.
    func measureClear() throws {
        let name = FormatFilePlan.namespace
        let samples = plan.sampleKeys(5)
        let other = try console.inspector.namespace(FormatFilePlan.otherNamespace)
        progress("Clearing \(name) (\(Format.grouped(plan.entries)) entries)…")
        let previewed = try console.admin.preview(.clear(namespace: name)).entries
        let admin = console.admin
        let before = try console.inspector.namespace(name).entryCount
        let cleared = try race(
            { try admin.run(.clear(namespace: name)) },
            until: {
                let summary = try console.inspector.namespace(name)
                return try summary.entryCount == 0 && summary.liveEntryCount == 0
                    && samples.allSatisfy { try !isReadable($0) }
            })
        record(visibilityRow("clear \(name) (\(Format.grouped(plan.entries)) entries): readers see it empty", cleared))
        let auditID = cleared.result.auditID
        let restored = try race(
            { try admin.restore(auditID) },
            until: { try console.inspector.namespace(name).entryCount == before && samples.allSatisfy(isReadable) })
        record(visibilityRow("  its undo: readers see every entry again", restored))
        let otherAfter = try console.inspector.namespace(FormatFilePlan.otherNamespace)
        let agree =
            previewed == before && cleared.result.removed == before && restored.result == before
            && before == plan.entries
            && otherAfter.entryCount == other.entryCount && otherAfter.bytes == other.bytes
        record(
            GoalRow(
                measure: "  written = previewed = removed = restored; other namespace",
                figure: Format.agreement(plan.entries, previewed, cleared.result.removed, restored.result)
                    + "; other \(Format.grouped(other.entryCount))→\(Format.grouped(otherAfter.entryCount))",
                goal: "all agree", verdict: Verdict(agree)))
    }

    /// `invisible after 12.3 ms (call returned after 45.6 ms)` against 50 ms.
    private func visibilityRow<T>(_ measure: String, _ race: Race<T>) -> GoalRow {
        let seen = race.conditionMetAfter.map { String(format: "%.1f ms", $0 / 1e6) } ?? "never"
        return GoalRow(
            measure: measure,
            figure: "after \(seen) (the call returned after " + String(format: "%.1f ms)", race.returnedAfter / 1e6),
            goal: "≤ 50 ms", verdict: Verdict((race.conditionMetAfter ?? .infinity) <= 50e6))
    }

    /// What ``race(_:until:)`` saw.
    struct Race<T> {
        let result: T
        /// Nanoseconds from the start until `condition` first held; `nil` if it did not by the
        /// time `work` returned.
        let conditionMetAfter: Double?
        let returnedAfter: Double
    }

    /// Runs `work` on another thread while this one polls `condition` (every 0.2 ms) until it
    /// holds or `work` has returned.
    private func race<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T, until condition: () throws -> Bool
    ) throws -> Race<T> {
        let outcome = Mutex<(Result<T, any Error>, ContinuousClock.Instant)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        Thread {
            let result = Result { try work() }
            outcome.withLock { $0 = (result, .now) }
            finished.signal()
        }.start()
        let polled = Result<Double?, any Error> {
            while true {
                let returned = outcome.withLock { $0 != nil }
                if try condition() { return (ContinuousClock.now - start).nanoseconds }
                if returned { return nil }
                usleep(200)
            }
        }
        finished.wait()
        guard let (result, end) = outcome.withLock({ $0 }) else { throw BenchError("the action did not finish") }
        return Race(
            result: try result.get(), conditionMetAfter: try polled.get(), returnedAfter: (end - start).nanoseconds)
    }
}
