-- PLANTED BUG (watchdog story): rwlock_read_renew.lua that renews the lock hash but forgets the
-- readers' timeout keys, where each reader's own lease lives. The hash lives on, but the reader's
-- lease runs out 30 s after its acquire however long the watchdog renews, and the next read unlock
-- (anyone's) drops it.
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = the prefix of every reader's timeout keys "{<name>}"
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = reader id "<uuid>:<tid>"
if (redis.call('hget', KEYS[1], ARGV[2]) ~= false) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;
