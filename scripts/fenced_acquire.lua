-- FencedLock acquire with its token (RedissonFencedLock's lockAndGetToken / tryLockAndGetToken),
-- Redisson 3.19.0 onward: RLock's acquire that also INCRs the token counter on every grant, a
-- re-entry's included. The text of Redisson 3.19.0, RedissonFencedLock.tryLockInnerAsync
-- (EVAL_LONG_LIST), byte-identical at every tag from 3.19.0 to 4.7.0.
-- KEYS[1] = lock name, KEYS[2] = the token counter "redisson_lock_token:{<name>}"
-- ARGV[1] = lease in ms (the user's leaseTime, or lockWatchdogTimeout when none is given)
-- ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns {-1, token} when acquired (fresh or re-entered), else {the lock's PTTL, -1}.
if (redis.call('exists', KEYS[1]) == 0 or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then local token = redis.call('incr', KEYS[2]);redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return {-1, token}; end; return {redis.call('pttl', KEYS[1]), -1};
