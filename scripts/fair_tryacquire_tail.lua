-- FairLock tryLock() with no wait ("tryacquire", EVAL_NULL_BOOLEAN), Redisson 3.11.1 to 3.30.x: never
-- enqueues. Prunes stale waiters; takes a free lock when the queue is empty or the caller is its
-- head (lowering every remaining waiter's timeout by the wait, as acquire does); re-enters. The text
-- of Redisson 3.11.1, RedissonFairLock.tryLockInnerAsync (EVAL_NULL_BOOLEAN), byte-identical at
-- every tag from 3.11.1 to 3.30.0. (3.31.0: fair_tryacquire_tail_3_31.)
-- KEYS[1] = lock name, KEYS[2] = queue, KEYS[3] = timeouts
-- ARGV[1] = lease in ms, ARGV[2] = holder id, ARGV[3] = now (client clock, ms),
-- ARGV[4] = threadWaitTime in ms (note: the reverse of acquire's order)
-- Returns nil when acquired, 1 when not.
while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);if firstThreadId2 == false then break;end;local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));if timeout <= tonumber(ARGV[3]) then redis.call('zrem', KEYS[3], firstThreadId2);redis.call('lpop', KEYS[2]);else break;end;end;if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]);redis.call('zrem', KEYS[3], ARGV[2]);local keys = redis.call('zrange', KEYS[3], 0, -1);for i = 1, #keys, 1 do redis.call('zincrby', KEYS[3], -tonumber(ARGV[4]), keys[i]);end;redis.call('hset', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;return 1;
