-- PLANTED BUG (reentrancy story): rlock_unlock.lua without the HEXISTS check. An unlock by a
-- thread that holds nothing decrements its own (absent) field to -1, finds it not above 0, and
-- deletes the lock: the holder's count with it.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
