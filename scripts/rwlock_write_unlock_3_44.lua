-- ReadWriteLock, write unlock: Redisson 3.44.0 onward (1ce49b7a2) (RedissonWriteLock.unlockInnerAsync;
-- redisson-reference.md 1.4). A missing lock answers nil (IllegalMonitorStateException); up to
-- 3.43.x it was a silent success (rwlock_write_unlock.lua). The rest is unchanged.
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = channel "redisson_rwlock:{<name>}"
-- ARGV[1] = unlock message (1, READ_UNLOCK_MESSAGE: wakes every waiter), ARGV[2] = lease in ms
-- (internalLockLeaseTime), ARGV[3] = writer id "<uuid>:<tid>:write"
-- Returns nil when the caller does not hold the write lock, 0 when a re-entrant hold remains (its
-- lease restarts), 1 when the write hold ended: the hash goes and waiters are told, or, when the
-- writer also took read locks, the hash stays in read mode.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  return nil;
end;
if (mode == 'write') then
  if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
    return nil;
  end;
  local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
  if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[2]);
    return 0;
  end;
  redis.call('hdel', KEYS[1], ARGV[3]);
  if (redis.call('hlen', KEYS[1]) == 1) then
    redis.call('del', KEYS[1]);
    redis.call('publish', KEYS[2], ARGV[1]);
  else
    -- the writer's own read holds remain
    redis.call('hset', KEYS[1], 'mode', 'read');
  end;
  return 1;
end;
return nil;
