-- Planted bug (liveness story rlock-reentrant-unlock-persists-probed): Redisson's RLock unlock
-- (scripts/rlock_unlock.lua) where the partial unlock of a re-entrant hold calls PERSIST instead
-- of PEXPIRE ("keep the lock while it is still held"): the remaining hold loses its expiry, so if
-- its holder dies the key stays for good.
-- KEYS[1] = lock name, KEYS[2] = channel; ARGV[1] = unlock message, ARGV[2] = lease, ARGV[3] = holder id
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('persist', KEYS[1]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return nil;
