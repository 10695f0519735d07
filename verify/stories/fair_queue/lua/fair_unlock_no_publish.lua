-- Planted bug (fair_queue story fair-unlock-forgets-publish): the FairLock unlock
-- (scripts/fair_unlock.lua) with its PUBLISH to the queue head's channel lost: the lock is
-- released, but the first waiter sleeps on the ttl it was last answered.
-- KEYS[1] = lock name, KEYS[2] = queue, KEYS[3] = timeouts, KEYS[4] = channel prefix
-- ARGV[1] = unlock message, ARGV[2] = lease, ARGV[3] = holder id, ARGV[4] = now

-- remove stale threads
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
  local nextThreadId = redis.call('lindex', KEYS[2], 0);
  if nextThreadId ~= false then
    -- (the publish to the head's channel is missing here too)
  end;
  return 1;
end;

if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;

local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
end;

redis.call('del', KEYS[1]);
-- (planted: the head of the queue is no longer told; its publish was lost in an edit)
return 1;
