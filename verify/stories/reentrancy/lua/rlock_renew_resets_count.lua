-- PLANTED BUG (reentrancy story): rlock_renew.lua that "refreshes" the hold by writing it again as
-- the first acquire does (hset field 1, the Redisson 3.12 acquire's form): the lease restarts, and a
-- re-entered holder's count is reset to 1.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = holder id
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;
