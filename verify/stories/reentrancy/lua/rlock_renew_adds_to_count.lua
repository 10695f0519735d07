-- PLANTED BUG (reentrancy story): rlock_renew.lua built from the acquire script's re-entry branch.
-- The renewal restarts the lease as it should, but with hincrby 1 where the real script only checks
-- hexists: every renewal adds one to its holder's count, as if the holder had re-entered.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = holder id
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;
