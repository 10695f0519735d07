-- PLANTED BUG (verify/stories/read_write/rwlock-write-acquire-ignores-readers.yaml): scripts/
-- rwlock_write_acquire.lua that treats a lock in read mode as free. The real script answers the
-- hash's PTTL (busy) when mode is 'read'; this one switches the hash to write mode and adds the
-- writer next to the readers still in it.
-- KEYS[1] = the lock hash `<name>`; ARGV[1] = lease in ms, ARGV[2] = writer id "<uuid>:<tid>:write"
-- Returns nil when acquired, else the hash's remaining PTTL.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) or (mode == 'read') then
  redis.call('hset', KEYS[1], 'mode', 'write');
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
if (mode == 'write') then
  if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    local current = redis.call('pttl', KEYS[1]);
    redis.call('pexpire', KEYS[1], current + ARGV[1]);
    return nil;
  end;
end;
return redis.call('pttl', KEYS[1]);
