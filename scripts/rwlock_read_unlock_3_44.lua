-- ReadWriteLock, read unlock: Redisson 3.44.0 onward (1ce49b7a2) (RedissonReadLock.unlockInnerAsync;
-- redisson-reference.md 1.4). A missing lock answers nil (IllegalMonitorStateException); up to
-- 3.43.x it was a silent success (rwlock_read_unlock.lua). The rest is unchanged.
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = channel "redisson_rwlock:{<name>}"
-- KEYS[3] = the caller's timeout-key prefix "{<name>}:<uuid>:<tid>:rwlock_timeout"
-- KEYS[4] = the prefix of every reader's timeout keys "{<name>}"
-- ARGV[1] = unlock message (0: wakes one waiter), ARGV[2] = reader id "<uuid>:<tid>"
-- Deletes the caller's newest timeout key. While other holders remain the hash lives on for the
-- longest PTTL among all readers' timeout keys (0 returned); a lock in write mode (the caller's
-- own writer remains) also answers 0. Otherwise the hash goes, waiters are told and 1 returned.
-- Returns nil when the caller holds no read lock.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  return nil;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1);
if (counter == 0) then
  redis.call('hdel', KEYS[1], ARGV[2]);
end;
redis.call('del', KEYS[3] .. ':' .. (counter + 1));
if (redis.call('hlen', KEYS[1]) > 1) then
  local max_remain = -3;
  local fields = redis.call('hkeys', KEYS[1]);
  for _, field in ipairs(fields) do
    local holds = tonumber(redis.call('hget', KEYS[1], field));
    if type(holds) == 'number' then
      for i = holds, 1, -1 do
        local remain = redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. i);
        max_remain = math.max(remain, max_remain);
      end;
    end;
  end;
  if max_remain > 0 then
    redis.call('pexpire', KEYS[1], max_remain);
    return 0;
  end;
  if mode == 'write' then
    return 0;
  end;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;
