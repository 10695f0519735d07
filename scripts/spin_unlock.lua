-- SpinLock unlock, Redisson 3.15.0 to 3.23.x: RLock's unlock without a publish (nobody listens). The
-- text of Redisson 3.15.0, RedissonSpinLock.unlockInnerAsync, byte-identical at every tag from
-- 3.15.0 to 3.23.5.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (internalLockLeaseTime), ARGV[2] = holder id
-- Returns 1 when released, 0 when a re-entrant hold remains, nil for a caller that does not hold it.
if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[1]); return 0; else redis.call('del', KEYS[1]); return 1; end; return nil;
