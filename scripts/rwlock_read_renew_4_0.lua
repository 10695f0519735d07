-- ReadWriteLock, read-lock watchdog renewal: Redisson 4.0.0 to 4.3.x, batched
-- (renewal/ReadLockTask.renew). The text of Redisson 4.0.0, byte-identical at every tag from 4.0.0
-- to 4.3.1: 3.44.0's batch with the inner loop's variable renamed (725d181c8, PR #6883), so it does
-- what the per-lock rwlock_read_renew.lua did, one lock after another.
-- KEYS = pairs: the lock hash `<name>`, then the prefix of its readers' timeout keys "{<name>}"
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[1+j] = the reader id "<uuid>:<tid>" of lock j's
-- first renewing thread
-- For each lock whose reader still holds: the hash's lease restarts and so does EVERY reader's
-- timeout key, other clients' included (#1458); 1, else 0. Returns the list of them.
local result = {} local j = 1 for i = 1, #KEYS, 2 do j = j + 1; local counter = redis.call('hget', KEYS[i], ARGV[j]); if (counter ~= false) then redis.call('pexpire', KEYS[i], ARGV[1]); if (redis.call('hlen', KEYS[i]) > 1) then local keys = redis.call('hkeys', KEYS[i]); for n, key in ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[i], key)); if type(counter) == 'number' then for c=counter, 1, -1 do redis.call('pexpire', KEYS[i+1] .. ':' .. key .. ':rwlock_timeout:' .. c, ARGV[1]); end; end; end; end; table.insert(result, 1); else table.insert(result, 0); end; end; return result;
