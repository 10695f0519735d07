-- RLock unlock: Redisson 3.10.6 to 3.21.x (seed 002). The text of Redisson 3.10.6,
-- RedissonLock.unlockInnerAsync, byte-identical at every tag from 3.10.6 to 3.21.3. (3.22.0 passes
-- the publish command as an ARGV: rlock_unlock_3_22; 3.24.0 adds the latch: rlock_unlock_latch.)
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
-- Returns nil when the caller does not hold the lock (IllegalMonitorStateException), 0 when a
-- re-entrant hold remains (its lease restarts), 1 when the lock was released and waiters told.
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; return nil;
