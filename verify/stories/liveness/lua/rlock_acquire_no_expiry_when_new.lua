-- Planted bug (liveness story red-acquire-without-expiry-holder-crash): Redisson's RLock acquire
-- (scripts/rlock_acquire_hincrby.lua) that sets the lease only on a re-entry: a fresh hold is
-- created with no expiry ("the watchdog will set it"). Until the first renewal the key depends on
-- its holder alone; if the holder dies first, it stays for good.
-- KEYS[1] = lock name; ARGV[1] = lease in ms, ARGV[2] = holder id
if (redis.call('exists', KEYS[1]) == 0) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  return nil;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
return redis.call('pttl', KEYS[1]);
