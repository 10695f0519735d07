-- ReadWriteLock, read-lock watchdog renewal: Redisson 3.8.1 (#1604) to 3.43.x
-- (RedissonReadLock.renewExpirationAsync; 3.44.0 moved it into the batched ReadLockTask, with a
-- scoping bug: rwlock_read_renew_3_44.lua). The text of
-- Redisson 3.43.0, byte-identical at every tag from 3.8.1 to 3.43.0. The write lock renews with
-- rlock_renew.lua and its id "<uuid>:<tid>:write".
-- KEYS[1] = the lock hash `<name>`, KEYS[2] = the prefix of every reader's timeout keys "{<name>}"
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = reader id "<uuid>:<tid>"
-- When the caller still reads, the hash's lease restarts and so does EVERY reader's timeout key,
-- other clients' included; returns 1. Otherwise 0 (the client then cancels renewal).
local counter = redis.call('hget', KEYS[1], ARGV[2]); if (counter ~= false) then redis.call('pexpire', KEYS[1], ARGV[1]); if (redis.call('hlen', KEYS[1]) > 1) then local keys = redis.call('hkeys', KEYS[1]); for n, key in ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[1], key)); if type(counter) == 'number' then for i=counter, 1, -1 do redis.call('pexpire', KEYS[2] .. ':' .. key .. ':rwlock_timeout:' .. i, ARGV[1]); end; end; end; end; return 1; end; return 0;
