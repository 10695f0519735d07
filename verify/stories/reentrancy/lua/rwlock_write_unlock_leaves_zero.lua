-- PLANTED BUG (reentrancy story): rwlock_write_unlock.lua that, when the writer's count reaches 0,
-- leaves its field at 0 in the hash (no HDEL, no DEL) and still answers 1 (released). The lock stays
-- in write mode, held by nobody, until its lease runs out.
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
  -- BUG: the field stays at 0 and the hash is neither deleted nor switched to read mode
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return nil;
