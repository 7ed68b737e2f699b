import CacheCore
/// The scripts of TTL actions: rewriting entries' expiry times (keeping the old ones for the
/// undo) and putting them back.
extension RedisScript {
    /// The source of an expiry script; `nil` for the others.
    var expirySource: String? {
        switch self {
        case .changeExpiry:
            """
            #!lua
            \(Self.tagHelpers)
            local gen = redis.call('HGET', KEYS[1], 'generation')
            if not gen then return {0, 0, {}} end
            local now, retention, ms, kind = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[7]), ARGV[6]
            local changed, bytes, names = 0, 0, {}
            for i = 9, #ARGV do
              local key = ARGV[i]
              local entry = ARGV[1] .. gen .. ':' .. key
              local field = ARGV[8] .. key
              local old = redis.call('HMGET', entry, 'c', 'x', 's', 't')
              -- A key SCAN returns twice is changed once.
              local chosen = old[1] and redis.call('HEXISTS', KEYS[3], field) == 0
              if chosen and ARGV[5] ~= '' then
                chosen = false
                if old[4] then
                  for _, tag in ipairs(cjson.decode(old[4])) do if tag == ARGV[5] then chosen = true end end
                end
              end
              if chosen then
                redis.call('HSET', KEYS[3], field, cjson.encode({gen, old[1], old[2] or '', old[3] or ''}))
                local x, s = tonumber(old[2]), tonumber(old[3])
                local nx, ns = nil, nil
                if kind == 'now' then
                  nx = now
                  ns = (x and s and s > x) and now + (s - x) or now
                elseif kind == 'set' then
                  nx = now + ms
                  ns = (x and s) and nx + (s - x) or nx
                elseif kind == 'extend' then
                  nx = x and x + ms
                  ns = s and s + ms
                end
                if nx then redis.call('HSET', entry, 'x', string.format('%.0f', nx)) else redis.call('HDEL', entry, 'x') end
                if ns then redis.call('HSET', entry, 's', string.format('%.0f', ns)) else redis.call('HDEL', entry, 's') end
                if not ns then
                  redis.call('PERSIST', entry)
                elseif ns > now then
                  redis.call('PEXPIRE', entry, string.format('%.0f', ns - now))
                else
                  -- Past its stale window: kept (unread) for the undo, no longer than before.
                  local left = redis.call('PTTL', entry)
                  if left < 0 or left > retention then redis.call('PEXPIRE', entry, retention) end
                end
                addTags(ARGV[2] .. gen .. ':', key, entry)
                bytes = bytes + redis.call('HSTRLEN', entry, 'v') + #key
                changed = changed + 1
                table.insert(names, key)
              end
            end
            if changed > 0 then
              redis.call('HINCRBY', KEYS[2], 'entries', changed)
              redis.call('HINCRBY', KEYS[2], 'bytes', bytes)
              if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], retention) end
              if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], retention) end
            end
            return {changed, bytes, names}
            """
        case .restoreExpiry:
            """
            #!lua flags=allow-oom
            \(Self.tagHelpers)
            local now = tonumber(ARGV[3])
            local restored = 0
            for i = 5, #ARGV do
              local key = ARGV[i]
              local field = ARGV[4] .. key
              local kept = redis.call('HGET', KEYS[1], field)
              if kept then
                local old = cjson.decode(kept)
                local entry = ARGV[1] .. old[1] .. ':' .. key
                if redis.call('HGET', entry, 'c') == old[2] then
                  if old[3] ~= '' then redis.call('HSET', entry, 'x', old[3]) else redis.call('HDEL', entry, 'x') end
                  if old[4] ~= '' then
                    redis.call('HSET', entry, 's', old[4])
                    redis.call('PEXPIRE', entry, string.format('%.0f', math.max(1, tonumber(old[4]) - now)))
                  else
                    redis.call('HDEL', entry, 's')
                    redis.call('PERSIST', entry)
                  end
                  addTags(ARGV[2] .. old[1] .. ':', key, entry)
                  restored = restored + 1
                end
                redis.call('HDEL', KEYS[1], field)
              end
            end
            return restored
            """
        default:
            nil
        }
    }
}
