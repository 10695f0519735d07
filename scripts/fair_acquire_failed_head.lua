-- FairLock acquireFailed, Redisson 2.10.5/3.5.5 to 3.11.0 (#1104; goes with fair_acquire_head): a
-- tryLock that gives up leaves the queue. When the leaver was the FIRST waiter, every waiter's
-- timeout drops by threadWaitTime (theirs were computed from the leaver's), then it is removed.
-- (2.7.4/3.2.4 to 2.10.4/3.5.4 only removed it: not modelled.) The text of Redisson 3.5.5,
-- RedissonFairLock.acquireFailedAsync, byte-identical at every tag from 3.5.5 to 3.11.0.
-- KEYS[1] = queue "redisson_lock_queue:{<name>}", KEYS[2] = timeouts "redisson_lock_timeout:{<name>}"
-- ARGV[1] = holder id, ARGV[2] = threadWaitTime in ms
-- Returns nil.
local firstThreadId = redis.call('lindex', KEYS[1], 0); if firstThreadId == ARGV[1] then local keys = redis.call('zrange', KEYS[2], 0, -1); for i = 1, #keys, 1 do redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), keys[i]);end;end;redis.call('zrem', KEYS[2], ARGV[1]); redis.call('lrem', KEYS[1], 0, ARGV[1]); 
