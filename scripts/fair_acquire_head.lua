-- FairLock acquire, the older variant: Redisson 2.7.0/3.2.0 to 3.11.0 (seed 000). A newcomer's
-- timeout is computed from the FIRST waiter in the queue; nothing is decremented on acquire. The text
-- of Redisson 3.11.0, RedissonFairLock.tryLockInnerAsync (EVAL_LONG), byte-identical at every tag
-- from 3.2.0 to 3.11.0.
-- KEYS[1] = lock name, KEYS[2] = queue "redisson_lock_queue:{<name>}",
-- KEYS[3] = timeouts "redisson_lock_timeout:{<name>}"
-- ARGV[1] = lease in ms, ARGV[2] = holder id,
-- ARGV[3] = now + threadWaitTime (client clock, ms), ARGV[4] = now (client clock, ms)
-- Returns nil when acquired, else the ttl (ms) the caller should wait.
while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);if firstThreadId2 == false then break;end; local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); redis.call('lpop', KEYS[2]); else break;end; end;if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]); redis.call('zrem', KEYS[3], ARGV[2]); redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; local firstThreadId = redis.call('lindex', KEYS[2], 0); local ttl; if firstThreadId ~= false and firstThreadId ~= ARGV[2] then ttl = tonumber(redis.call('zscore', KEYS[3], firstThreadId)) - tonumber(ARGV[4]);else ttl = redis.call('pttl', KEYS[1]);end; local timeout = ttl + tonumber(ARGV[3]);if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]);end; return ttl;
