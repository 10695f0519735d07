-- RLock forceUnlock: every Redisson version. Deletes the lock whoever holds it.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0)
-- Returns 1 when a lock was deleted (and waiters told), else 0.
if (redis.call('del', KEYS[1]) == 1) then
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
else
  return 0;
end;
