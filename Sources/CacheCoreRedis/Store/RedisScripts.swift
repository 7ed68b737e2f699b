import CacheCore
/// The Lua scripts a ``RedisStore`` runs: each change of an entry or a namespace is one
/// atomic script that reads the namespace's generation and version itself, so a clear or a
/// version change by another host takes effect at once for every reader and writer.
///
/// Every key a script touches is on its namespace's slot: those it is given, and the entry
/// and tag keys it names from the generation it reads (under the namespace's hash tag on a
/// cluster, see ``RedisKeys``). They are loaded at open and run by `EVALSHA`; after a server
/// restart forgot them (or on a cluster node that never loaded them), `EVAL` runs them.
enum RedisScript: CaseIterable, Sendable {
    /// KEYS: namespace hash, then the entry key. ARGV: entries prefix, version, key.
    /// Returns `[v, c, x, s, t]` of the entry (null fields when absent), or null when the
    /// namespace is not at `version`. A get reads with two plain `HMGET`s first and runs
    /// this only when the generation it guessed moved or a cluster redirected it.
    case read
    /// KEYS: namespace hash, then the entry keys and tag sets. ARGV: entries prefix, tags
    /// prefix, version, policy JSON (empty: ask for it); then per entry: key, PEXPIRE
    /// milliseconds, tags JSON (empty strings for none), how many arguments follow, then the
    /// entry's fields and values (`v`, `c`, `w`, and `x`, `s` when set). Returns `{1,
    /// generation}`, `{0, version}` when another version owns it, or `{'policy'}`, changing
    /// nothing, when the namespace's hash is gone (since it was opened) and the policy JSON
    /// was left out.
    case write
    /// KEYS: namespace hash, then the entry keys and tag sets. ARGV: entries prefix, tags
    /// prefix, generation (empty: the current one), tag (empty: any), keys…. Deletes those of
    /// `keys` whose entry exists (and carries the tag); returns how many.
    case remove
    /// KEYS: namespace hash, its retired set. ARGV: version, policy JSON, now, escaped name.
    /// Returns `{generation, retired generation or 0}`.
    case register
    /// KEYS: namespace hash, its retired set (or its kept sorted set, then the action's ledger
    /// in the namespace). ARGV: escaped name, now, and optionally when the old generation is
    /// purged and the retention (ms). Moves the namespace to a new generation; returns the old
    /// one (0 when the namespace does not exist), listed as retired (to be unlinked now) or,
    /// with a purge time, kept as an action's trash until then and written in the ledger in
    /// the same step.
    case clear
    /// KEYS: namespace hash, the action's ledger in the namespace. ARGV: entries prefix, tags
    /// prefix, trash prefix, retention ms, tag (empty: any), keys…. Moves the entries (of the
    /// current generation, carrying the tag) into the trash keys, capping their expiry at the
    /// retention, and adds them to the ledger's `entries` and `bytes`. Returns `{moved, bytes,
    /// moved keys}`.
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
    /// KEYS: namespace hash, the action's ledger and expiry trash hash in the namespace. ARGV: entries prefix, tags
    /// prefix, now, retention ms, tag (empty: any), change (`now`, `never`, `set`, `extend`),
    /// its ms, trash field prefix, keys…. Rewrites each entry's `x`, `s` and `PEXPIRE`,
    /// keeping the old times in the trash hash. Returns `{changed, bytes, changed keys}`.
    case changeExpiry
    /// KEYS: expiry trash hash. ARGV: entries prefix, tags prefix, now, trash field prefix,
    /// keys…. Puts back the kept times unless the entry was written since. Returns how many.
    case restoreExpiry
    /// KEYS: audit record or ledger. ARGV: triples of `set`/`add`/`del`, field, value. Updates
    /// an existing record even at `maxmemory` (what an action did is never left unrecorded);
    /// returns 0 when the record is gone.
    case auditUpdate
    /// KEYS: audit record. ARGV: claimant (`pid@host`), the claimant it may take over (empty:
    /// none). Marks the record `restoring` by the claimant; returns `ok`, `gone`, `undone` or
    /// the current claimant.
    case claimUndo

    /// What the store scripts that name keys from the generation and tags they read begin
    /// with: `need(name)` notes a key it is about to touch that KEYS does not declare, and
    /// before touching any, such a script returns `needed(generation)`, `{{'need', generation},
    /// names…}`, changing nothing; ``RedisStore`` runs it again with those names declared too.
    /// So every key a script touches is declared, as a cluster needs to route it and to hold
    /// it during a migration.
    static let declaredKeys = """
        local declared, missing = nil, {}
        local function need(name)
          if not declared then
            declared = {}
            for _, key in ipairs(KEYS) do declared[key] = true end
          end
          if not declared[name] then
            declared[name] = true
            table.insert(missing, name)
          end
        end
        local function needed(gen)
          local reply = {{'need', gen}}
          for _, name in ipairs(missing) do table.insert(reply, name) end
          return reply
        end
        """

    /// The script's source. Every script has a shebang, so Redis checks `maxmemory` before it
    /// starts (a write is refused whole, never half done); reads (`no-writes`) and removals
    /// (`allow-oom`) run under it too.
    var source: String {
        switch self {
        case .read:
            """
            #!lua flags=no-writes
            \(Self.declaredKeys)
            local meta = redis.call('HMGET', KEYS[1], 'version', 'generation')
            if meta[1] ~= ARGV[2] or not meta[2] then return false end
            local entry = ARGV[1] .. meta[2] .. ':' .. ARGV[3]
            need(entry)
            if #missing > 0 then return needed(meta[2]) end
            return redis.call('HMGET', entry, 'v', 'c', 'x', 's', 't')
            """
        case .write:
            // An entry's hash is deleted before it is written again only when it exists (its
            // `c` is always set), and its fields come as the client laid them out: a fresh
            // entry costs the namespace's HMGET, its own HMGET and one HSET.
            """
            #!lua
            \(Self.declaredKeys)
            local meta = redis.call('HMGET', KEYS[1], 'version', 'generation')
            if meta[2] and meta[1] ~= ARGV[3] then return {0, meta[1]} end
            if not meta[2] and ARGV[4] == '' then return {'policy'} end
            local gen = meta[2] or '1'
            local entries, tagsPrefix = ARGV[1] .. gen .. ':', ARGV[2] .. gen .. ':'
            local function needTags(json)
              if json and json ~= '' then
                for _, tag in ipairs(cjson.decode(json)) do need(tagsPrefix .. tag) end
              end
            end
            -- The client names every entry key and new tag set after one generation: when
            -- the first entry's is right, they all are.
            local named = KEYS[2] == entries .. ARGV[5]
            local i = 5
            while not named and i <= #ARGV do
              need(entries .. ARGV[i])
              needTags(ARGV[i + 2])
              i = i + 4 + tonumber(ARGV[i + 3])
            end
            if #missing > 0 then return needed(gen) end
            local olds = {}
            i = 5
            while i <= #ARGV do
              local old = redis.call('HMGET', entries .. ARGV[i], 'c', 't')
              olds[i] = old
              if old[2] ~= ARGV[i + 2] then needTags(old[2]) end
              i = i + 4 + tonumber(ARGV[i + 3])
            end
            if #missing > 0 then return needed(gen) end
            if not meta[2] then
              redis.call('HSET', KEYS[1], 'version', ARGV[3], 'generation', 1, 'policy', ARGV[4])
            end
            i = 5
            while i <= #ARGV do
              local key, ttl, tags = ARGV[i], ARGV[i + 1], ARGV[i + 2]
              local last = i + 3 + tonumber(ARGV[i + 3])
              local entry = entries .. key
              local old = olds[i]
              if old[2] and old[2] ~= tags then
                for _, tag in ipairs(cjson.decode(old[2])) do redis.call('SREM', tagsPrefix .. tag, key) end
              end
              if old[1] then redis.call('DEL', entry) end
              if tags == '' then
                redis.call('HSET', entry, unpack(ARGV, i + 4, last))
              else
                redis.call('HSET', entry, 't', tags, unpack(ARGV, i + 4, last))
              end
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
              i = last + 1
            end
            return {1, gen}
            """
        case .remove:
            """
            #!lua flags=allow-oom
            \(Self.declaredKeys)
            local gen = ARGV[3]
            if gen == '' then gen = redis.call('HGET', KEYS[1], 'generation') end
            if not gen then return 0 end
            local tag = ARGV[4] ~= '' and ARGV[4] or nil
            local entries, tagsPrefix = ARGV[1] .. gen .. ':', ARGV[2] .. gen .. ':'
            -- The client names every entry key after one generation: when the last is right,
            -- they all are.
            if KEYS[#KEYS] ~= entries .. ARGV[#ARGV] then
              for i = 5, #ARGV do need(entries .. ARGV[i]) end
            end
            if #missing > 0 then return needed(gen) end
            local found, untagged = {}, {}
            for i = 5, #ARGV do
              local json = redis.call('HGET', entries .. ARGV[i], 't')
              if json then
                local tags = cjson.decode(json)
                local carries = tag == nil
                for _, t in ipairs(tags) do
                  if t == tag then carries = true end
                end
                if carries then
                  found[i] = tags
                  for _, t in ipairs(tags) do need(tagsPrefix .. t) end
                end
              elseif tag == nil then
                found[i] = untagged
              end
            end
            if #missing > 0 then return needed(gen) end
            local removed = 0
            for i = 5, #ARGV do
              if found[i] then
                for _, t in ipairs(found[i]) do redis.call('SREM', tagsPrefix .. t, ARGV[i]) end
                removed = removed + redis.call('DEL', entries .. ARGV[i])
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
              return {1, 0}
            end
            if meta[1] == ARGV[1] then
              if meta[3] ~= ARGV[2] then redis.call('HSET', KEYS[1], 'policy', ARGV[2], 'updated', ARGV[3]) end
              return {tonumber(meta[2]), 0}
            end
            local gen = redis.call('HINCRBY', KEYS[1], 'generation', 1)
            redis.call('HSET', KEYS[1], 'version', ARGV[1], 'policy', ARGV[2], 'updated', ARGV[3])
            redis.call('SADD', KEYS[2], ARGV[4] .. ':' .. meta[2])
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
              redis.call('HSET', KEYS[3], 'kept', gen, 'current', tonumber(gen) + 1, 'entries', 0, 'bytes', 0)
              redis.call('PEXPIRE', KEYS[3], ARGV[4])
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
    private let digests: [RedisScript: RedisArgument]

    /// Loads every script (`SCRIPT LOAD`) on `connection`. A store that only reads
    /// (`isReadOnly`) does without when the ACL user may not load scripts: reads need read
    /// permissions only (scripts it runs then go by `EVAL`).
    init(loadingOn connection: RedisConnection, isReadOnly: Bool) throws(RedisError) {
        var digests: [RedisScript: RedisArgument] = [:]
        do throws(RedisError) {
            for script in RedisScript.allCases {
                let reply = try connection.command(["SCRIPT", "LOAD", RedisArgument(script.source)])
                guard let digest = reply.string else { throw RedisError.server("SCRIPT LOAD answered \(reply)") }
                digests[script] = RedisArgument(digest)
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
        // EVALSHA digest (or EVAL source), the key count, the keys, the arguments: built once.
        var command: [RedisArgument] = ["EVALSHA", digests[script] ?? "", RedisArgument(keys.count)]
        command.reserveCapacity(command.count + keys.count + arguments.count)
        for key in keys { command.append(RedisArgument(key)) }
        command.append(contentsOf: arguments)
        if digests[script] != nil {
            do {
                return try connection.command(command)
            } catch .server(let message) where message.hasPrefix("NOSCRIPT") {
                // The server restarted or its scripts were flushed: EVAL loads it again.
            }
        }
        command[0] = "EVAL"
        command[1] = RedisArgument(script.source)
        return try connection.command(command)
    }
}
