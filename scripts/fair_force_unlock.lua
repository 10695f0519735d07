-- FairLock forceUnlock: Redisson 2.7.0/3.2.0 to 3.21.x, before the 3.22.0 publish-command argument.
-- Prunes stale waiters, deletes the lock whoever holds it and wakes the queue's head. The text of
-- Redisson 3.21.3, RedissonFairLock.forceUnlockAsync, byte-identical at every tag from 3.2.0 to
-- 3.21.3.
-- KEYS[1] = lock name, KEYS[2] = queue, KEYS[3] = timeouts,
-- KEYS[4] = channel prefix "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = now (client clock, ms)
-- Returns 1 when a lock was deleted (and the head told), else 0.
while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);if firstThreadId2 == false then break;end; local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));if timeout <= tonumber(ARGV[2]) then redis.call('zrem', KEYS[3], firstThreadId2); redis.call('lpop', KEYS[2]); else break;end; end;if (redis.call('del', KEYS[1]) == 1) then local nextThreadId = redis.call('lindex', KEYS[2], 0); if nextThreadId ~= false then redis.call('publish', KEYS[4] .. ':' .. nextThreadId, ARGV[1]); end; return 1; end; return 0;
