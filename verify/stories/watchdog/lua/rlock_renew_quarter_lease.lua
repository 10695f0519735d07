-- PLANTED BUG (watchdog story): rlock_renew.lua with a wrong lease. The renewal restarts the key's
-- lease with a quarter of lockWatchdogTimeout, shorter than the watchdog's period (a third of it),
-- so the key runs out between two renewals while its holder still holds it.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = holder id
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('pexpire', KEYS[1], math.floor(tonumber(ARGV[1]) / 4));
  return 1;
end;
return 0;
