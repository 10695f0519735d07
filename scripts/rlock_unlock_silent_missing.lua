-- RLock unlock: Redisson 2.2.4 to 3.10.5 (seed 000). Unlocking a lock whose key is gone (expired,
-- or never taken) publishes and succeeds silently; 3.10.6 removed that branch (#2018). The text of
-- Redisson 3.10.5, RedissonLock.unlockInnerAsync, byte-identical at every tag from 3.2.0 to 3.10.5
-- (and 2.7.0 to 2.15.2).
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
-- Returns 1 when released (or already gone), 0 when a re-entrant hold remains, nil for a
-- caller that does not hold an existing lock.
if (redis.call('exists', KEYS[1]) == 0) then redis.call('publish', KEYS[2], ARGV[1]); return 1; end;if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; return nil;
