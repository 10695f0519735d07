-- RLock acquire written as one condition (exists == 0 or hexists == 1): Redisson 3.19.0 onward. The
-- text of Redisson 3.19.0, RedissonLock.tryLockInnerAsync, byte-identical at every tag from 3.19.0
-- to 4.7.0. Behaves as rlock_acquire_hincrby.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (the user's leaseTime, or lockWatchdogTimeout when none is given)
-- ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil when acquired (fresh or re-entered), else the lock's remaining PTTL in ms.
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);
