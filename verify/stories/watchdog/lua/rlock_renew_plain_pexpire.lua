-- PLANTED BUG (watchdog story): the watchdog renewal of Redisson before 2.4.0, a plain PEXPIRE that
-- never checks that the caller still holds the lock (rlock_renew.lua checks HEXISTS first). Whoever
-- holds the key now, the renewal restarts its lease and answers 1.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = holder id (ignored)
return redis.call('pexpire', KEYS[1], ARGV[1]);
