-- Non-reentrant FairLock tryLock() with no wait, Redisson 4.4.0 onward (RedissonNonReentrantFairLock,
-- EVAL_NULL_BOOLEAN): never queues. The text of Redisson 4.4.0,
-- RedissonNonReentrantFairLock.tryLockInnerAsync (EVAL_NULL_BOOLEAN), byte-identical at every tag
-- from 4.4.0 to 4.7.0.
-- KEYS[1] = lock name, KEYS[2] = the waiters' queue, KEYS[3] = the waiters' timeouts
-- ARGV[1] = lease in ms, ARGV[2] = holder id "<client uuid>:<thread id>"
-- ARGV[3] = now on the caller's clock, ARGV[4] = wait (threadWaitTime)
-- ARGV[5] = "NON_REENTRANT_REACQUIRE", the error a re-entry is answered with
-- Returns nil when acquired, the error when the caller already holds it, else 1.
while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);if firstThreadId2 == false then break;end;local timeout = redis.call('zscore', KEYS[3], firstThreadId2);if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[3]) then redis.call('zrem', KEYS[3], firstThreadId2);redis.call('lpop', KEYS[2]);else break;end;end;if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]);redis.call('zrem', KEYS[3], ARGV[2]);local keys = redis.call('zrange', KEYS[3], 0, -1);for i = 1, #keys, 1 do redis.call('zincrby', KEYS[3], -tonumber(ARGV[4]), keys[i]);end;redis.call('hset', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then return redis.error_reply(ARGV[5]);end;return 1;
