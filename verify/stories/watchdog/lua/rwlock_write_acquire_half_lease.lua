-- PLANTED BUG (watchdog story): rwlock_write_acquire.lua whose fresh branch sets HALF the lease it
-- was asked for (say, a unit slip). A writer that asked for lock(10 s) is out after 5 s.
-- KEYS[1] = the lock hash `<name>`
-- ARGV[1] = lease in ms, ARGV[2] = writer id "<uuid>:<tid>:write"
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('hset', KEYS[1], 'mode', 'write');
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], math.floor(tonumber(ARGV[1]) / 2));
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
