-- Planted bug (liveness story rlock-refused-acquire-extends-dead-key): Redisson's RLock acquire
-- (scripts/rlock_acquire_hincrby.lua) with the PEXPIRE moved out of the "acquired" branch, as if
-- to "refresh the lease on every call": a refused caller now resets the holder's expiry to its own
-- lease. A holder that dies is kept alive by the very waiters it blocks.
-- KEYS[1] = lock name; ARGV[1] = lease in ms, ARGV[2] = holder id
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
redis.call('pexpire', KEYS[1], ARGV[1]);
return redis.call('pttl', KEYS[1]);
