-- Planted bug (liveness story rlock-unlock-forgets-publish): Redisson's RLock unlock
-- (scripts/rlock_unlock.lua) with the PUBLISH lost in an edit. The lock is released correctly,
-- but nobody waiting on redisson_lock__channel:{<name>} is told: each waiter sleeps the ttl it
-- was last answered.
-- KEYS[1] = lock name, KEYS[2] = channel; ARGV[1] = unlock message, ARGV[2] = lease, ARGV[3] = holder id
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
else
  redis.call('del', KEYS[1]);
  -- (the publish to KEYS[2] is missing)
  return 1;
end;
return nil;
