-- ReadWriteLock forceUnlock: Redisson 3.5.5 onward (RedissonReadLock / RedissonWriteLock
-- .forceUnlockAsync, each with its own mode literal, here ARGV[2]). Deletes the lock whoever holds
-- it, but only in the caller's mode.
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = channel "redisson_rwlock:{<name>}"
-- ARGV[1] = unlock message (0 for read, 1 for write), ARGV[2] = mode ('read' or 'write')
-- Returns 1 when the lock was deleted (and waiters told), else 0.
if (redis.call('hget', KEYS[1], 'mode') == ARGV[2]) then
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return 0;
