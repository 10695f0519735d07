-- RLock forceUnlock: Redisson 2.3.0/3.0.0 to 3.21.x. Deletes the lock whoever holds it. The text of
-- Redisson 3.21.3, RedissonLock.forceUnlockAsync, byte-identical at every tag from 2.3.0 to 3.21.3.
-- (3.22.0 passes the publish command as an ARGV: rlock_force_unlock_3_22.)
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0)
-- Returns 1 when a lock was deleted (and waiters told), else 0.
if (redis.call('del', KEYS[1]) == 1) then redis.call('publish', KEYS[2], ARGV[1]); return 1 else return 0 end
