-- RLock acquire, "hincrby" variant: Redisson 3.12.3 to 3.18.x (seed 003, #2551: hincrby in both
-- branches). The text of Redisson 3.12.3, RedissonLock.tryLockInnerAsync, byte-identical at every
-- tag from 3.12.3 to 3.18.1. (3.19.0 folds the two branches: rlock_acquire_one_condition.)
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (the user's leaseTime, or lockWatchdogTimeout when none is given)
-- ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil when acquired (fresh or re-entered), else the lock's remaining PTTL in ms.
if (redis.call('exists', KEYS[1]) == 0) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);
