-- FairLock acquireFailed, Redisson 3.11.1 onward (PR #2100; goes with fair_acquire_tail and its
-- later eras): a tryLock that gives up leaves the queue; only the waiters AFTER it get their
-- timeout lowered by threadWaitTime (theirs were chained from its), then it is removed. The text of
-- Redisson 3.11.1, RedissonFairLock.acquireFailedAsync, byte-identical at every tag from 3.11.1 to
-- 4.7.0.
-- KEYS[1] = queue "redisson_lock_queue:{<name>}", KEYS[2] = timeouts "redisson_lock_timeout:{<name>}"
-- ARGV[1] = holder id, ARGV[2] = threadWaitTime in ms (the tryLock wait when it replaces it)
-- Returns nil.
local queue = redis.call('lrange', KEYS[1], 0, -1);local i = 1;while i <= #queue and queue[i] ~= ARGV[1] do i = i + 1;end;i = i + 1;while i <= #queue do redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), queue[i]);i = i + 1;end;redis.call('zrem', KEYS[2], ARGV[1]);redis.call('lrem', KEYS[1], 0, ARGV[1]);
