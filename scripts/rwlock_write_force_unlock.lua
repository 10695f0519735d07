-- ReadWriteLock forceUnlock, write lock: Redisson 3.3.2 to 3.21.x (RedissonWriteLock.forceUnlockAsync).
-- Deletes the lock whoever holds it, but only in write mode. The text of Redisson 3.21.3,
-- byte-identical at every tag from 3.3.2 to 3.21.3 (3.22.0 passes the publish command as an ARGV:
-- not modelled, same effect).
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = channel "redisson_rwlock:{<name>}"
-- ARGV[1] = unlock message (1)
-- Returns 1 when the lock was deleted (and waiters told), else 0.
if (redis.call('hget', KEYS[1], 'mode') == 'write') then redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; return 0; 
