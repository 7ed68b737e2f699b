import CacheCore
import Foundation

extension RedisStoreInspector {
    /// One page of the live generation of `query.namespace`, in `SCAN` order: bounded `SCAN`
    /// batches (`MATCH` on the key prefix, glob characters escaped), each read in one pipeline.
    ///
    /// - Throws: `InspectorError/noSuchNamespace(_:)`; `InspectorError/cursorMismatch` for a
    ///   cursor of another namespace or filter, or when the namespace was cleared since;
    ///   `EntryFilterError` for a `hits` term or a regular expression that runs too long.
    public func entries(_ query: RedisEntryQuery) throws -> RedisEntryPage {
        if query.filter.terms.contains(where: { if case .hits = $0 { true } else { false } }) {
            throw EntryFilterError("hits are not recorded on Redis; filter by key, tag, ttl, age or size")
        }
        let filterText = query.filter.description
        let now = Self.now()
        let matcher = try query.filter.keyMatcher()
        let limit = max(1, query.limit)
        guard let namespace = try currentNamespace(query.namespace) else {
            throw InspectorError.noSuchNamespace(query.namespace)
        }
        return try read(key: keys.namespace(query.namespace)) { connection in
            if let after = query.after {
                guard after.namespace == query.namespace, after.filter == filterText,
                    after.generation == namespace.generation
                else { throw InspectorError.cursorMismatch }
            }
            let base = Data((keys.entries(query.namespace) + "\(namespace.generation):").utf8)
            let prefix =
                query.filter.terms.lazy.compactMap { if case .keyPrefix(let text) = $0 { text } else { nil } }
                .first ?? ""
            let pattern = RedisKeys.glob(String(decoding: base, as: UTF8.self) + prefix) + "*"
            var cursor = query.after?.scanCursor ?? "0"
            var pending = query.after?.pending ?? []
            var scanned = query.after != nil
            var rows: [EntryRow] = []
            var examined = 0
            let calls = try ScanLimit(on: connection)
            var made = 0
            while rows.count < limit {
                if pending.isEmpty {
                    if scanned && cursor == "0" { break }
                    if examined >= query.scanLimit { break }
                    try calls.check(made, endpoint: connection.endpoint.description)
                    made += 1
                    let reply = try connection.command([
                        "SCAN", RedisArgument(cursor), "MATCH", RedisArgument(pattern), "COUNT",
                        RedisArgument(query.batchSize),
                    ])
                    guard let parts = reply.array, parts.count == 2, let next = parts[0].string,
                        let names = parts[1].array?.compactMap(\.data)
                    else { throw RedisError.server("SCAN gave an unexpected reply") }
                    cursor = next
                    scanned = true
                    pending = names.map { Data($0.dropFirst(base.count)) }
                    continue
                }
                let chunk = Array(pending.prefix(max(limit - rows.count, 16)))
                let found = try RedisEntryReader.rows(
                    chunk.map { base + $0 }, keyStart: base.count, namespace: query.namespace,
                    version: namespace.version, value: false, on: connection)
                var used = 0
                for row in found {
                    used += 1
                    examined += 1
                    if let row, try query.filter.matches(row, now: now, keys: matcher) { rows.append(row) }
                    if rows.count == limit { break }
                }
                pending.removeFirst(used)
            }
            let done = pending.isEmpty && scanned && cursor == "0"
            return RedisEntryPage(
                namespace: query.namespace, generation: namespace.generation, now: now, rows: rows,
                next: done
                    ? nil
                    : RedisEntryCursor(
                        namespace: query.namespace, generation: namespace.generation, filter: filterText,
                        scanCursor: cursor, pending: pending),
                examinedKeys: examined, reachedScanLimit: !done && rows.count < limit)
        }
    }

    /// The entry stored under the canonical `key` in `namespace`'s live generation (expired
    /// ones still in their stale window included), or `nil` when there is none. A key that is
    /// not UTF-8 is found by the escaped text `EntryRow/key` shows for it.
    public func entry(namespace: String, key: String, options: EntryDetailOptions = EntryDetailOptions()) throws
        -> EntryDetail?
    {
        let now = Self.now()
        let maxBytes = min(max(options.maxBytes, 16), 16 << 20)
        guard let record = try currentNamespace(namespace) else { return nil }
        return try read(key: keys.namespace(namespace)) { connection in
            let base = Data((keys.entries(namespace) + "\(record.generation):").utf8)
            for bytes in [Data(CanonicalKey.normalized(key).utf8), PrintableKey.bytes(key)].compactMap({ $0 }) {
                let found = try RedisEntryReader.rows(
                    [base + bytes], keyStart: base.count, namespace: namespace, version: record.version, value: true,
                    on: connection)
                guard let row = found.first ?? nil else { continue }
                var fetched = row
                let limit = options.format == .automatic ? max(maxBytes, Inspector.jsonParseLimit) : maxBytes
                fetched.preview = row.preview.prefix(limit)
                return Inspector.detail(of: fetched, now: now, format: options.format, maxBytes: maxBytes)
            }
            return nil
        }
    }

    /// The namespace's record when it is in the namespace set and its hash exists (on a
    /// cluster the set and the hash are on the nodes serving their slots).
    func currentNamespace(_ name: String) throws -> RedisNamespace? {
        let hash = keys.namespace(name)
        let replies = try RedisStore.mapping(endpoint) {
            try servers.pipeline([
                (Data(keys.namespaces.utf8), ["SISMEMBER", RedisArgument(keys.namespaces), RedisArgument(name)]),
                (Data(hash.utf8), ["HMGET", RedisArgument(hash), "version", "generation"]),
            ])
        }
        for case .error(let message) in replies { throw CacheError.serverError(endpoint: endpoint, message: message) }
        guard replies[0].integer == 1, let fields = replies[1].array, fields.count == 2 else { return nil }
        return RedisNamespace(
            name: name, version: fields[0].string ?? "", generation: fields[1].integer ?? 1, policy: nil,
            policyJSON: "", updatedAt: nil)
    }
}
