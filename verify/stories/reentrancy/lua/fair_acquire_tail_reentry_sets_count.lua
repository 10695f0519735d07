-- PLANTED BUG (reentrancy story): fair_acquire_tail.lua whose re-entry branch SETS the count to 1
-- (hset) instead of incrementing it, so a thread that holds the fair lock twice is counted once.
-- Original header: FairLock acquire, the newer variant: Redisson 3.11.1 to 3.30.x (seed 004, PR #2100). A newcomer's
-- timeout is computed from the LAST waiter in the queue, and every waiter's timeout drops by
-- threadWaitTime when one acquires. (3.31.0 made the stale loop nil-safe; 3.32.0 answers an
-- already-queued thread with max(0, pttl).)
-- KEYS[1] = lock name, KEYS[2] = queue "redisson_lock_queue:{<name>}",
-- KEYS[3] = timeouts "redisson_lock_timeout:{<name>}"
-- ARGV[1] = lease in ms, ARGV[2] = holder id, ARGV[3] = threadWaitTime in ms,
-- ARGV[4] = now (client clock, ms)
-- Returns nil when acquired, else the ttl (ms) the caller should wait.

-- remove stale threads
while true do
  local firstThreadId2 = redis.call('lindex', KEYS[2], 0);
  if firstThreadId2 == false then
    break;
  end;
  local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));
  if timeout <= tonumber(ARGV[4]) then
    -- remove the item from the queue and timeout set; no other timeout changes
    redis.call('zrem', KEYS[3], firstThreadId2);
    redis.call('lpop', KEYS[2]);
  else
    break;
  end;
end;

-- check if the lock can be acquired now
if (redis.call('exists', KEYS[1]) == 0)
    and ((redis.call('exists', KEYS[2]) == 0)
      or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then
  -- remove this thread from the queue and timeout set
  redis.call('lpop', KEYS[2]);
  redis.call('zrem', KEYS[3], ARGV[2]);
  -- decrease timeouts for all waiting in the queue
  local keys = redis.call('zrange', KEYS[3], 0, -1);
  for i = 1, #keys, 1 do
    redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), keys[i]);
  end;
  -- acquire the lock and set the TTL for the lease
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;

-- check if the lock is already held, and this is a re-entry
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hset', KEYS[1], ARGV[2], 1);  -- BUG: should be hincrby by 1
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;

-- the lock cannot be acquired; check if the thread is already in the queue
local timeout = redis.call('zscore', KEYS[3], ARGV[2]);
if timeout ~= false then
  -- the real timeout is the timeout of the prior thread in the queue, but this is approximately
  -- correct and avoids traversing the queue
  return timeout - tonumber(ARGV[3]) - tonumber(ARGV[4]);
end;

-- add the thread to the queue at the end, with a timeout of the prior thread's timeout (or the
-- lock's ttl when the queue is empty) plus threadWaitTime
local lastThreadId = redis.call('lindex', KEYS[2], -1);
local ttl;
if lastThreadId ~= false and lastThreadId ~= ARGV[2] then
  ttl = tonumber(redis.call('zscore', KEYS[3], lastThreadId)) - tonumber(ARGV[4]);
else
  ttl = redis.call('pttl', KEYS[1]);
end;
local timeout = ttl + tonumber(ARGV[3]) + tonumber(ARGV[4]);
if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then
  redis.call('rpush', KEYS[2], ARGV[2]);
end;
return ttl;
