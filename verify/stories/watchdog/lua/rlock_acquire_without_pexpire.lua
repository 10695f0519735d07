-- PLANTED BUG (watchdog story): rlock_acquire_hincrby.lua that forgets the PEXPIRE. The hash is
-- created with no expiry at all, so only the watchdog's first renewal (a third of
-- lockWatchdogTimeout later) would ever give it one; a holder that dies before that leaves the
-- lock taken forever.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (ignored), ARGV[2] = holder id "<client uuid>:<thread id>"
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  return nil;
end;
return redis.call('pttl', KEYS[1]);
