-- PLANTED BUG (verify/stories/read_write/rwlock-read-unlock-drops-other-readers.yaml): scripts/
-- rwlock_read_unlock.lua (3.11.1 to 3.43.x) that, when the caller's own read count reaches 0,
-- deletes the whole hash instead of only the caller's field: the other readers' holds go with it,
-- and a writer is let in while they still read.
-- Same KEYS/ARGV as scripts/rwlock_read_unlock.lua.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1);
if (counter == 0) then
  -- the bug: the caller's last read hold ends the whole lock, other readers or not
  redis.call('del', KEYS[1]);
  redis.call('del', KEYS[3] .. ':' .. (counter + 1));
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
redis.call('del', KEYS[3] .. ':' .. (counter + 1));
if (redis.call('hlen', KEYS[1]) > 1) then
  local max_remain = -3;
  local fields = redis.call('hkeys', KEYS[1]);
  for _, field in ipairs(fields) do
    local holds = tonumber(redis.call('hget', KEYS[1], field));
    if type(holds) == 'number' then
      for i = holds, 1, -1 do
        local remain = redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. i);
        max_remain = math.max(remain, max_remain);
      end;
    end;
  end;
  if max_remain > 0 then
    redis.call('pexpire', KEYS[1], max_remain);
    return 0;
  end;
  if mode == 'write' then
    return 0;
  end;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;
