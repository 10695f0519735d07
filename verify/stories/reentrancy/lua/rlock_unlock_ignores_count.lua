-- PLANTED BUG (reentrancy story): rlock_unlock.lua that ignores the hold count. Any unlock by a
-- holder deletes the lock, however many re-entries it still has.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;
