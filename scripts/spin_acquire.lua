-- SpinLock acquire, Redisson 3.15.0 onward (RedissonSpinLock): RLock's acquire in two branches,
-- fresh and re-entered. The text of Redisson 3.15.0, RedissonSpinLock.tryLockInnerAsync,
-- byte-identical at every tag from 3.15.0 to 4.7.0.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (the user's leaseTime, or the instance's internalLockLeaseTime)
-- ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil when acquired (fresh or re-entered), else the lock's remaining PTTL in ms.
if (redis.call('exists', KEYS[1]) == 0) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);
