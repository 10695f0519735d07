-- Planted bug (fair_queue story fair-acquire-ignores-queue-newcomer-barges): the FairLock acquire
-- of the head era (scripts/fair_acquire_head.lua) whose "can it be acquired now" test lost its
-- queue condition: whoever finds the lock hash absent takes it, queued or not (and leaves the
-- queue if it was in it). A newcomer that arrives between an unlock and the woken head's retry
-- barges in.
-- KEYS[1] = lock name, KEYS[2] = queue, KEYS[3] = timeouts
-- ARGV[1] = lease, ARGV[2] = holder id, ARGV[3] = now + threadWaitTime, ARGV[4] = now
while true do
  local firstThreadId2 = redis.call('lindex', KEYS[2], 0);
  if firstThreadId2 == false then
    break;
  end;
  local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));
  if timeout <= tonumber(ARGV[4]) then
    redis.call('zrem', KEYS[3], firstThreadId2);
    redis.call('lpop', KEYS[2]);
  else
    break;
  end;
end;

if (redis.call('exists', KEYS[1]) == 0) then
  redis.call('lrem', KEYS[2], 0, ARGV[2]);
  redis.call('zrem', KEYS[3], ARGV[2]);
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;

if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;

local firstThreadId = redis.call('lindex', KEYS[2], 0);
local ttl;
if firstThreadId ~= false and firstThreadId ~= ARGV[2] then
  ttl = tonumber(redis.call('zscore', KEYS[3], firstThreadId)) - tonumber(ARGV[4]);
else
  ttl = redis.call('pttl', KEYS[1]);
end;
local timeout = ttl + tonumber(ARGV[3]);
if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then
  redis.call('rpush', KEYS[2], ARGV[2]);
end;
return ttl;
