-- PLANTED BUG (reentrancy story): rwlock_write_unlock.lua that deletes the whole hash when the
-- write count reaches 0, even when the writer also holds read locks (the real script then keeps the
-- hash in read mode). The write unlock wipes the read side's count, which it must not touch.
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = channel "redisson_rwlock:{<name>}"
-- ARGV[1] = unlock message, ARGV[2] = lease in ms, ARGV[3] = writer id "<uuid>:<tid>:write"
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
if (mode == 'write') then
  if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
    return nil;
  end;
  local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
  if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[2]);
    return 0;
  end;
  -- BUG: the writer's own read holds are deleted with the hash
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return nil;
