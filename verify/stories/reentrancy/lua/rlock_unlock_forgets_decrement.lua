-- PLANTED BUG (reentrancy story): rlock_unlock.lua that READS the count (hget) and works out
-- count - 1 but never writes it back (the hincrby -1 was "optimised" away). A single hold is
-- released as before; an unlock of a re-entered hold answers 0 and leaves the count unchanged.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = tonumber(redis.call('hget', KEYS[1], ARGV[3])) - 1;
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
