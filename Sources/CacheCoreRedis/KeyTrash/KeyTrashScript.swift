/// The two scripts of a keyspace deletion. Each runs on one slot: its trash hash and the keys
/// it moves share it, so a cluster runs it on one node, atomically.
enum KeyTrashScript {
    /// The server's clock in ms, as a script reads it.
    private static let now = """
        local clock = redis.call('TIME')
        local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
        """

    /// KEYS: the trash hash, the deletion's ledger in the same slot, then the keys. ARGV:
    /// retention ms. Each key that exists is `DUMP`ed into the trash hash (field: its name,
    /// value: `<expires at ms, 0: never>:<dump>`) and unlinked, and added to the ledger's
    /// `entries` and `bytes`, in the same step; both expire after the retention. Returns
    /// `{moved, bytes}` (bytes: `MEMORY USAGE` of the keys moved).
    static let move = """
        #!lua
        \(now)
        local moved, bytes = 0, 0
        for i = 3, #KEYS do
          local key = KEYS[i]
          local dump = redis.call('DUMP', key)
          if dump then
            local ttl = redis.call('PTTL', key)
            local at = 0
            if ttl > 0 then at = now + ttl end
            bytes = bytes + (redis.call('MEMORY', 'USAGE', key) or 0)
            redis.call('HSET', KEYS[1], key, at .. ':' .. dump)
            redis.call('UNLINK', key)
            moved = moved + 1
          end
        end
        if moved > 0 then
          redis.call('PEXPIRE', KEYS[1], ARGV[1])
          redis.call('HINCRBY', KEYS[2], 'entries', moved)
          redis.call('HINCRBY', KEYS[2], 'bytes', bytes)
          redis.call('PEXPIRE', KEYS[2], ARGV[1])
        end
        return {moved, bytes}
        """

    /// KEYS: the trash hash, then the keys (fields of it). `RESTORE`s each key kept there with
    /// its expiry, unless the key exists again (the new value wins) or its expiry has passed;
    /// the trash copy goes either way, except when `RESTORE` refuses it (kept, counted failed).
    /// Deletes the trash hash once it is empty. Returns `{restored, rewritten, expired, failed}`.
    static let restore = """
        #!lua
        \(now)
        local restored, rewritten, expired, failed = 0, 0, 0, 0
        for i = 2, #KEYS do
          local key = KEYS[i]
          local saved = redis.call('HGET', KEYS[1], key)
          if saved then
            local colon = string.find(saved, ':', 1, true)
            local at = colon and tonumber(string.sub(saved, 1, colon - 1))
            local done = true
            if not at then
              failed = failed + 1
              done = false
            elseif redis.call('EXISTS', key) == 1 then
              rewritten = rewritten + 1
            elseif at > 0 and at <= now then
              expired = expired + 1
            else
              local reply
              if at > 0 then
                reply = redis.pcall('RESTORE', key, at, string.sub(saved, colon + 1), 'ABSTTL')
              else
                reply = redis.pcall('RESTORE', key, 0, string.sub(saved, colon + 1))
              end
              if type(reply) == 'table' and reply.err then
                failed = failed + 1
                done = false
              else
                restored = restored + 1
              end
            end
            if done then redis.call('HDEL', KEYS[1], key) end
          end
        end
        if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
        return {restored, rewritten, expired, failed}
        """
}
