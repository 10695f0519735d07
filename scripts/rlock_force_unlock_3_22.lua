-- RLock forceUnlock with the publish command as an ARGV: Redisson 3.22.0 onward (#5047). The text of
-- Redisson 3.22.0, RedissonLock.forceUnlockAsync, byte-identical at every tag from 3.22.0 to 4.7.0.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = publish command ("publish")
-- Returns 1 when a lock was deleted (and waiters told), else 0.
if (redis.call('del', KEYS[1]) == 1) then redis.call(ARGV[2], KEYS[2], ARGV[1]); return 1 else return 0 end
