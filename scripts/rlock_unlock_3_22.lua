-- RLock unlock with the publish command as an ARGV: Redisson 3.22.0 to 3.23.x (#5047). The text of
-- Redisson 3.22.0, RedissonLock.unlockInnerAsync, byte-identical at every tag from 3.22.0 to 3.23.5.
-- It does what rlock_unlock does; Redisson sends "spublish" instead of "publish" with sharded
-- pub/sub (locksim has none: the client sends "publish").
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id,
-- ARGV[4] = publish command ("publish")
-- Returns nil when the caller does not hold the lock (IllegalMonitorStateException), 0 when a
-- re-entrant hold remains (its lease restarts), 1 when the lock was released and waiters told.
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; else redis.call('del', KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); return 1; end; return nil;
