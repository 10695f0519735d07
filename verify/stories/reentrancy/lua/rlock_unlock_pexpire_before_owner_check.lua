-- PLANTED BUG (reentrancy story): rlock_unlock.lua with its pexpire hoisted above the ownership
-- check ("every unlock that leaves the key restarts its lease"). An unlock by a thread that holds
-- nothing is still refused (nil, IllegalMonitorStateException), but it has already set the holder's
-- key to expire after the caller's internalLockLeaseTime.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
redis.call('pexpire', KEYS[1], ARGV[2]);
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
