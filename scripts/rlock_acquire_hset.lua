-- RLock acquire, "hset" variant: Redisson 2.2.4 to 3.12.2 (seed 000). The text of Redisson 3.12.2,
-- RedissonLock.tryLockInnerAsync, byte-identical at every tag from 2.3.0/3.0.0 to 3.12.2.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (the user's leaseTime, or lockWatchdogTimeout when none is given)
-- ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil when acquired (fresh or re-entered), else the lock's remaining PTTL in ms.
if (redis.call('exists', KEYS[1]) == 0) then redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);
