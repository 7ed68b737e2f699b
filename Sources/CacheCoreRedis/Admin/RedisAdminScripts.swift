import CacheCore
/// The scripts of operator actions (``RedisAdmin``): moving entries into an action's trash
/// and back, and undoing a clear. Loaded with the store's other scripts.
extension RedisScript {
    /// Lua helpers: `dropTags` takes `key` out of the tag sets its entry's `t` names;
    /// `addTags` puts it in them, keeping each set alive as long as its longest member.
    static let tagHelpers = """
        local function dropTags(tagsPrefix, key, entry)
          local tags = redis.call('HGET', entry, 't')
          if tags then
            for _, tag in ipairs(cjson.decode(tags)) do redis.call('SREM', tagsPrefix .. tag, key) end
          end
        end
        local function addTags(tagsPrefix, key, entry)
          local tags = redis.call('HGET', entry, 't')
          if not tags then return end
          local ttl = redis.call('PTTL', entry)
          for _, tag in ipairs(cjson.decode(tags)) do
            local set = tagsPrefix .. tag
            local existed = redis.call('EXISTS', set) == 1
            redis.call('SADD', set, key)
            if ttl < 0 then
              redis.call('PERSIST', set)
            else
              local left = redis.call('PTTL', set)
              if not existed or (left >= 0 and left < ttl) then redis.call('PEXPIRE', set, ttl) end
            end
          end
        end
        """

    /// The source of an admin script; `nil` for the store's own.
    var adminSource: String? {
        switch self {
        case .trashEntries:
            """
            #!lua flags=allow-oom
            \(Self.tagHelpers)
            local gen = redis.call('HGET', KEYS[1], 'generation')
            if not gen then return {0, 0, {}} end
            local moved, bytes, names = 0, 0, {}
            for i = 6, #ARGV do
              local key = ARGV[i]
              local entry = ARGV[1] .. gen .. ':' .. key
              local chosen = redis.call('EXISTS', entry) == 1
              if chosen and ARGV[5] ~= '' then
                chosen = false
                local tags = redis.call('HGET', entry, 't')
                if tags then
                  for _, tag in ipairs(cjson.decode(tags)) do if tag == ARGV[5] then chosen = true end end
                end
              end
              if chosen then
                dropTags(ARGV[2] .. gen .. ':', key, entry)
                bytes = bytes + redis.call('HSTRLEN', entry, 'v') + #key
                local trash = ARGV[3] .. key
                redis.call('RENAME', entry, trash)
                local left = redis.call('PTTL', trash)
                if left < 0 or left > tonumber(ARGV[4]) then redis.call('PEXPIRE', trash, ARGV[4]) end
                moved = moved + 1
                table.insert(names, key)
              end
            end
            if moved > 0 then
              redis.call('HINCRBY', KEYS[2], 'entries', moved)
              redis.call('HINCRBY', KEYS[2], 'bytes', bytes)
              if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
            end
            return {moved, bytes, names}
            """
        case .restoreEntries:
            """
            #!lua flags=allow-oom
            \(Self.tagHelpers)
            local gen = redis.call('HGET', KEYS[1], 'generation')
            if not gen then return {0, 0} end
            local now = tonumber(ARGV[4])
            local restored, bytes = 0, 0
            for i = 5, #ARGV do
              local key = ARGV[i]
              local trash = ARGV[3] .. key
              if redis.call('EXISTS', trash) == 1 then
                local entry = ARGV[1] .. gen .. ':' .. key
                local stale = redis.call('HGET', trash, 's')
                if redis.call('EXISTS', entry) == 1 or (stale and tonumber(stale) <= now) then
                  redis.call('DEL', trash)
                else
                  bytes = bytes + redis.call('HSTRLEN', trash, 'v') + #key
                  redis.call('RENAME', trash, entry)
                  if stale then
                    redis.call('PEXPIRE', entry, tonumber(stale) - now)
                  else
                    redis.call('PERSIST', entry)
                  end
                  addTags(ARGV[2] .. gen .. ':', key, entry)
                  restored = restored + 1
                end
              end
            end
            return {restored, bytes}
            """
        case .mergeEntries:
            """
            #!lua
            \(Self.tagHelpers)
            local from, to = ARGV[1] .. ARGV[3] .. ':', ARGV[1] .. ARGV[4] .. ':'
            local tagsPrefix = ARGV[2] .. ARGV[4] .. ':'
            local merged = 0
            for i = 6, #ARGV do
              local key = ARGV[i]
              local source, target = from .. key, to .. key
              local written = redis.call('HGET', source, 'c')
              if written then
                local kept = redis.call('HGET', target, 'c')
                -- A tie goes to the source when copying (written since the clear), to the
                -- target when moving (copied already, or written since the switch).
                local newer = kept and (tonumber(kept) > tonumber(written)
                  or (ARGV[5] == '0' and tonumber(kept) == tonumber(written)))
                if newer then
                  if ARGV[5] == '0' then redis.call('DEL', source) end
                else
                  if kept then dropTags(tagsPrefix, key, target) end
                  if ARGV[5] == '1' then
                    redis.call('COPY', source, target, 'REPLACE')
                  else
                    redis.call('RENAME', source, target)
                  end
                  addTags(tagsPrefix, key, target)
                  merged = merged + 1
                end
              end
            end
            return merged
            """
        case .restoreGeneration:
            """
            #!lua flags=allow-oom
            if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[2] then return 0 end
            local member = ARGV[3] .. ':' .. ARGV[1]
            if not redis.call('ZSCORE', KEYS[2], member) then return -1 end
            redis.call('HSET', KEYS[1], 'generation', ARGV[1], 'updated', ARGV[4])
            redis.call('ZREM', KEYS[2], member)
            redis.call('SADD', KEYS[3], ARGV[3] .. ':' .. ARGV[2])
            return 1
            """
        case .auditUpdate:
            """
            #!lua flags=allow-oom
            if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
            for i = 1, #ARGV, 3 do
              if ARGV[i] == 'set' then
                redis.call('HSET', KEYS[1], ARGV[i + 1], ARGV[i + 2])
              elseif ARGV[i] == 'add' then
                redis.call('HINCRBY', KEYS[1], ARGV[i + 1], ARGV[i + 2])
              else
                redis.call('HDEL', KEYS[1], ARGV[i + 1])
              end
            end
            return 1
            """
        case .claimUndo:
            """
            #!lua flags=allow-oom
            if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
            if redis.call('HEXISTS', KEYS[1], 'undone') == 1 then return 'undone' end
            local holder = redis.call('HGET', KEYS[1], 'restoring')
            if holder and holder ~= ARGV[2] then return holder end
            redis.call('HSET', KEYS[1], 'restoring', ARGV[1])
            return 'ok'
            """
        default:
            expirySource
        }
    }
}
