import CacheCore
/// The Lua scripts a ``RedisStore`` runs: each change of an entry or a namespace is one
/// atomic script that reads the namespace's generation and version itself, so a clear or a
/// version change by another host takes effect at once for every reader and writer.
///
/// Scripts build key names from the generation they read, so the store needs a standalone
/// server (not Redis Cluster). They are loaded at open and run by `EVALSHA`; after a server
/// restart forgot them, `EVAL` runs (and reloads) them.
enum RedisScript: CaseIterable, Sendable {
    /// KEYS: namespace hash. ARGV: entries prefix, version, key.
    /// Returns `[v, c, x, s, t]` of the entry (null fields when absent), or null when the
    /// namespace is not at `version`.
    case read
    /// KEYS: namespace hash, namespaces set. ARGV: entries prefix, tags prefix, version,
    /// writer, policy JSON, raw name; then per entry: key, value, created, expires, stale
    /// until, PEXPIRE milliseconds, tags JSON (empty strings for none).
    /// Returns `{1, generation}`, or `{0, version}` when another version owns the namespace.
    case write
    /// KEYS: namespace hash. ARGV: entries prefix, tags prefix, keys…. Returns how many
    /// entries it deleted.
    case remove
    /// KEYS: namespace hash. ARGV: entries prefix, tags prefix, tag, generation, keys….
    /// Deletes those of `keys` whose entry still carries `tag`; returns how many.
    case removeTagged
    /// KEYS: namespace hash, namespaces set, retired set. ARGV: version, policy JSON, now,
    /// escaped name, raw name. Returns `{generation, retired generation or 0}`.
    case register
    /// KEYS: namespace hash, retired set (or kept sorted set, then the audit record). ARGV:
    /// escaped name, now, and optionally when the old generation is purged and the raw name.
    /// Moves the namespace to a new generation; returns the old one (0 when the namespace
    /// does not exist), listed as retired (to be unlinked now) or, with a purge time, kept as
    /// an action's trash until then and added to the record's `cleared` in the same step.
    case clear
    /// KEYS: namespace hash, audit record. ARGV: entries prefix, tags prefix, trash prefix,
    /// retention ms, tag (empty: any), keys…. Moves the entries (of the current generation,
    /// carrying the tag) into the trash keys, capping their expiry at the retention, and adds
    /// them to the record's `entries` and `bytes`. Returns `{moved, bytes, moved keys}`.
    case trashEntries
    /// KEYS: namespace hash. ARGV: entries prefix, tags prefix, trash prefix, now, keys….
    /// Moves trash keys back into the current generation unless the key was written again
    /// or its stale window ended (then the trash copy goes). Returns `{restored, bytes}`.
    case restoreEntries
    /// KEYS: namespace hash. ARGV: entries prefix, tags prefix, from generation, to generation,
    /// `1` copy / `0` move, keys…. Merges entries into the other generation, the newer (`c`)
    /// winning (a tie: the source when copying, the target when moving). Returns how many it
    /// put there.
    case mergeEntries
    /// KEYS: namespace hash, kept sorted set, retired set. ARGV: kept generation, current
    /// generation, escaped name, now. Sets the generation back (retiring the current one);
    /// returns 1, 0 when the generation changed since, -1 when the kept one was purged.
    case restoreGeneration
    /// KEYS: namespace hash, audit record, expiry trash hash. ARGV: entries prefix, tags
    /// prefix, now, retention ms, tag (empty: any), change (`now`, `never`, `set`, `extend`),
    /// its ms, trash field prefix, keys…. Rewrites each entry's `x`, `s` and `PEXPIRE`,
    /// keeping the old times in the trash hash. Returns `{changed, bytes, changed keys}`.
    case changeExpiry
    /// KEYS: expiry trash hash. ARGV: entries prefix, tags prefix, now, trash field prefix,
    /// keys…. Puts back the kept times unless the entry was written since. Returns how many.
    case restoreExpiry
    /// KEYS: audit record. ARGV: triples of `set`/`add`/`del`, field, value. Updates an
    /// existing record even at `maxmemory` (what an action did is never left unrecorded);
    /// returns 0 when the record is gone.
    case auditUpdate
    /// KEYS: audit record. ARGV: claimant (`pid@host`), the claimant it may take over (empty:
    /// none). Marks the record `restoring` by the claimant; returns `ok`, `gone`, `undone` or
    /// the current claimant.
    case claimUndo

    /// The script's source. Every script has a shebang, so Redis checks `maxmemory` before it
    /// starts (a write is refused whole, never half done); reads (`no-writes`) and removals
    /// (`allow-oom`) run under it too.
    var source: String {
        switch self {
        case .read:
            """
            #!lua flags=no-writes
            local meta = redis.call('HMGET', KEYS[1], 'version', 'generation')
            if meta[1] ~= ARGV[2] or not meta[2] then return false end
            return redis.call('HMGET', ARGV[1] .. meta[2] .. ':' .. ARGV[3], 'v', 'c', 'x', 's', 't')
            """
        case .write:
            """
            #!lua
            local meta = redis.call('HMGET', KEYS[1], 'version', 'generation')
            if not meta[2] then
              redis.call('HSET', KEYS[1], 'version', ARGV[3], 'generation', 1, 'policy', ARGV[5])
              redis.call('SADD', KEYS[2], ARGV[6])
              meta = {ARGV[3], '1'}
            end
            if meta[1] ~= ARGV[3] then return {0, meta[1]} end
            local gen = meta[2]
            local tagsPrefix = ARGV[2] .. gen .. ':'
            for i = 7, #ARGV, 7 do
              local key = ARGV[i]
              local entry = ARGV[1] .. gen .. ':' .. key
              local old = redis.call('HGET', entry, 't')
              local tags = ARGV[i + 6]
              if old and old ~= tags then
                for _, tag in ipairs(cjson.decode(old)) do redis.call('SREM', tagsPrefix .. tag, key) end
              end
              redis.call('DEL', entry)
              local fields = {'v', ARGV[i + 1], 'c', ARGV[i + 2], 'w', ARGV[4]}
              if ARGV[i + 3] ~= '' then table.insert(fields, 'x'); table.insert(fields, ARGV[i + 3]) end
              if ARGV[i + 4] ~= '' then table.insert(fields, 's'); table.insert(fields, ARGV[i + 4]) end
              if tags ~= '' then table.insert(fields, 't'); table.insert(fields, tags) end
              redis.call('HSET', entry, unpack(fields))
              local ttl = ARGV[i + 5]
              if ttl ~= '' then redis.call('PEXPIRE', entry, ttl) end
              if tags ~= '' then
                for _, tag in ipairs(cjson.decode(tags)) do
                  local set = tagsPrefix .. tag
                  local existed = redis.call('EXISTS', set) == 1
                  redis.call('SADD', set, key)
                  if ttl == '' then
                    redis.call('PERSIST', set)
                  else
                    local left = redis.call('PTTL', set)
                    if not existed or (left >= 0 and left < tonumber(ttl)) then redis.call('PEXPIRE', set, ttl) end
                  end
                end
              end
            end
            return {1, gen}
            """
        case .remove:
            """
            #!lua flags=allow-oom
            local gen = redis.call('HGET', KEYS[1], 'generation')
            if not gen then return 0 end
            local removed = 0
            for i = 3, #ARGV do
              local entry = ARGV[1] .. gen .. ':' .. ARGV[i]
              local tags = redis.call('HGET', entry, 't')
              if tags then
                for _, tag in ipairs(cjson.decode(tags)) do
                  redis.call('SREM', ARGV[2] .. gen .. ':' .. tag, ARGV[i])
                end
              end
              removed = removed + redis.call('DEL', entry)
            end
            return removed
            """
        case .removeTagged:
            """
            #!lua flags=allow-oom
            local gen = ARGV[4]
            local removed = 0
            for i = 5, #ARGV do
              local entry = ARGV[1] .. gen .. ':' .. ARGV[i]
              local tags = redis.call('HGET', entry, 't')
              if tags then
                local carries = false
                for _, tag in ipairs(cjson.decode(tags)) do if tag == ARGV[3] then carries = true end end
                if carries then
                  for _, tag in ipairs(cjson.decode(tags)) do
                    redis.call('SREM', ARGV[2] .. gen .. ':' .. tag, ARGV[i])
                  end
                  removed = removed + redis.call('DEL', entry)
                end
              end
            end
            return removed
            """
        case .register:
            """
            #!lua
            local meta = redis.call('HMGET', KEYS[1], 'version', 'generation', 'policy')
            if not meta[2] then
              redis.call('HSET', KEYS[1], 'version', ARGV[1], 'generation', 1, 'policy', ARGV[2], 'updated', ARGV[3])
              redis.call('SADD', KEYS[2], ARGV[5])
              return {1, 0}
            end
            if meta[1] == ARGV[1] then
              if meta[3] ~= ARGV[2] then redis.call('HSET', KEYS[1], 'policy', ARGV[2], 'updated', ARGV[3]) end
              return {tonumber(meta[2]), 0}
            end
            local gen = redis.call('HINCRBY', KEYS[1], 'generation', 1)
            redis.call('HSET', KEYS[1], 'version', ARGV[1], 'policy', ARGV[2], 'updated', ARGV[3])
            redis.call('SADD', KEYS[3], ARGV[4] .. ':' .. meta[2])
            return {gen, tonumber(meta[2])}
            """
        case .clear:
            """
            #!lua flags=allow-oom
            local gen = redis.call('HGET', KEYS[1], 'generation')
            if not gen then return 0 end
            redis.call('HINCRBY', KEYS[1], 'generation', 1)
            redis.call('HSET', KEYS[1], 'updated', ARGV[2])
            if ARGV[3] then
              redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1] .. ':' .. gen)
              local recorded = redis.call('HGET', KEYS[3], 'cleared')
              local cleared = recorded and cjson.decode(recorded) or {}
              table.insert(cleared, {namespace = ARGV[4], kept = tonumber(gen), current = tonumber(gen) + 1})
              redis.call('HSET', KEYS[3], 'cleared', cjson.encode(cleared))
            else
              redis.call('SADD', KEYS[2], ARGV[1] .. ':' .. gen)
            end
            return tonumber(gen)
            """
        case .trashEntries, .restoreEntries, .mergeEntries, .restoreGeneration, .changeExpiry, .restoreExpiry,
            .auditUpdate, .claimUndo:
            adminSource ?? ""
        }
    }
}

/// The loaded scripts' SHA1 digests, by script.
struct RedisScripts: Sendable {
    private let digests: [RedisScript: String]

    /// Loads every script (`SCRIPT LOAD`) on `connection`. A store that only reads
    /// (`isReadOnly`) does without when the ACL user may not load scripts: reads need read
    /// permissions only (scripts it runs then go by `EVAL`).
    init(loadingOn connection: RedisConnection, isReadOnly: Bool) throws(RedisError) {
        var digests: [RedisScript: String] = [:]
        do throws(RedisError) {
            for script in RedisScript.allCases {
                let reply = try connection.command(["SCRIPT", "LOAD", RedisArgument(script.source)])
                guard let digest = reply.string else { throw RedisError.server("SCRIPT LOAD answered \(reply)") }
                digests[script] = digest
            }
        } catch .server(let message) where isReadOnly && message.hasPrefix("NOPERM") {
            digests = [:]
        }
        self.digests = digests
    }

    /// Runs `script` with `keys` and `arguments`; `EVAL` when the server no longer has it.
    func run(
        _ script: RedisScript, keys: [String], arguments: [RedisArgument], on connection: RedisConnection
    ) throws(RedisError) -> RedisReply {
        let tail = [RedisArgument(keys.count)] + keys.map { RedisArgument($0) } + arguments
        if let digest = digests[script] {
            do {
                return try connection.command(["EVALSHA", RedisArgument(digest)] + tail)
            } catch .server(let message) where message.hasPrefix("NOSCRIPT") {
                // The server restarted or its scripts were flushed: EVAL loads it again.
            }
        }
        return try connection.command(["EVAL", RedisArgument(script.source)] + tail)
    }
}
