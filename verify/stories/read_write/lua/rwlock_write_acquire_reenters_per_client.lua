-- PLANTED BUG (verify/stories/read_write/rwlock-write-reentry-per-client-second-thread.yaml):
-- scripts/rwlock_write_acquire.lua whose re-entry check matches the writer by CLIENT instead of
-- by client and thread: in write mode, any writer field "<uuid>:<any tid>:write" of the caller's
-- client lets the caller in, so a second thread of the writing client "re-enters" a write lock it
-- never took.
-- KEYS[1] = the lock hash `<name>`; ARGV[1] = lease in ms, ARGV[2] = writer id "<uuid>:<tid>:write"
-- Returns nil when acquired, else the hash's remaining PTTL.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('hset', KEYS[1], 'mode', 'write');
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
if (mode == 'write') then
  local client = string.match(ARGV[2], '^(.*):[^:]+:write$');
  local mine = false;
  for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    if string.match(field, '^(.*):[^:]+:write$') == client then
      mine = true;
    end;
  end;
  if mine then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    local current = redis.call('pttl', KEYS[1]);
    redis.call('pexpire', KEYS[1], current + ARGV[1]);
    return nil;
  end;
end;
return redis.call('pttl', KEYS[1]);
