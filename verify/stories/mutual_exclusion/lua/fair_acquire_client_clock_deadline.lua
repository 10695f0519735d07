-- PLANTED BUG (verify/stories/mutual_exclusion/fair-client-clock-deadline-clock-jump.yaml):
-- scripts/fair_acquire_tail.lua with a "stale holder" shortcut bolted on. On a fresh acquire it
-- also stores the holder's deadline, computed on the CALLER's clock (ARGV[4] + lease), in the
-- string key "<name>:deadline"; every later acquire first deletes the lock hash when its own clock
-- says that deadline has passed. Client clocks are not the server's: a caller whose clock runs
-- ahead (a clock_jump) breaks a lock whose lease the server still keeps.
-- Same KEYS/ARGV as scripts/fair_acquire_tail.lua (ARGV[4] = now, the caller's clock in ms).
local deadline = tonumber(redis.call('get', KEYS[1] .. ':deadline'));
if deadline ~= nil and deadline <= tonumber(ARGV[4]) then
  redis.call('del', KEYS[1]);
  redis.call('del', KEYS[1] .. ':deadline');
end;

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
  redis.call('set', KEYS[1] .. ':deadline', tonumber(ARGV[4]) + tonumber(ARGV[1]));
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
