-- PLANTED BUG (watchdog story): rwlock_read_acquire.lua (3.11.1 to 3.43.x) that gives a fresh
-- reader's timeout key -- where a ReadWriteLock reader's own lease lives -- half the lease it asked
-- for, while the hash gets the full lease. The reader's hold runs out halfway through its lease.
-- KEYS[1] = the lock hash `<name>`
-- KEYS[2] = this reader's timeout-key prefix "{<name>}:<uuid>:<tid>:rwlock_timeout"
-- ARGV[1] = lease in ms, ARGV[2] = reader id "<uuid>:<tid>", ARGV[3] = writer id "<uuid>:<tid>:write"
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('hset', KEYS[1], 'mode', 'read');
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('set', KEYS[2] .. ':1', 1);
  redis.call('pexpire', KEYS[2] .. ':1', math.floor(tonumber(ARGV[1]) / 2));  -- BUG: half the lease
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
if (mode == 'read') or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
  local n = redis.call('hincrby', KEYS[1], ARGV[2], 1);
  local timeout = KEYS[2] .. ':' .. n;
  redis.call('set', timeout, 1);
  redis.call('pexpire', timeout, ARGV[1]);
  local remain = redis.call('pttl', KEYS[1]);
  redis.call('pexpire', KEYS[1], math.max(remain, ARGV[1]));
  return nil;
end;
return redis.call('pttl', KEYS[1]);
