-- Planted bug (fair_queue story fair-acquire-lifo-two-threads): Redisson 3.32.0's FairLock acquire
-- (scripts/fair_acquire_tail_3_32.lua) with RPUSH mistyped as LPUSH when a newcomer queues: the
-- newest waiter goes to the queue's head, so unlocks wake and admit waiters last in, first out.
-- KEYS[1] = lock name, KEYS[2] = queue, KEYS[3] = timeouts
-- ARGV[1] = lease, ARGV[2] = holder id, ARGV[3] = threadWaitTime, ARGV[4] = now

-- remove stale threads
while true do
  local firstThreadId2 = redis.call('lindex', KEYS[2], 0);
  if firstThreadId2 == false then
    break;
  end;
  local timeout = redis.call('zscore', KEYS[3], firstThreadId2);
  if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[4]) then
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
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;

-- the lock cannot be acquired; check if the thread is already in the queue
local timeout = redis.call('zscore', KEYS[3], ARGV[2]);
if timeout ~= false then
  -- 3.32.0: the time the lock still has, never negative (a negative answer made lock() wait for a
  -- message that might never come)
  local ttl = redis.call('pttl', KEYS[1]);
  return math.max(0, ttl);
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
  redis.call('lpush', KEYS[2], ARGV[2]);  -- planted: LPUSH for RPUSH, the newcomer goes first
end;
return ttl;
