-- ReadWriteLock, read-lock watchdog renewal: Redisson 4.4.0 onward, batched
-- (renewal/ReadLockTask.buildChunk). The text of Redisson 4.4.0, byte-identical at every tag from
-- 4.4.0 to 4.7.0 (bfbf73d0b, 1b921e30f; PR #7098).
-- KEYS = pairs: the lock hash `<name>`, then the prefix of its readers' timeout keys "{<name>}"
-- ARGV[1] = lease in ms (lockWatchdogTimeout); then per lock: n, and the n reader ids "<uuid>:<tid>"
-- of this client's threads renewing it
-- Only this client's readers' timeout keys restart; the hash's lease restarts when one of them
-- still holds (1), else 0 and the client cancels the lock's renewal. A crashed client's readers are
-- no longer kept alive (#1458). Returns the list of them.
local result = {} local argIdx = 2 for i = 1, #KEYS, 2 do local anyAlive = false; local lockNamesCount = tonumber(ARGV[argIdx]); argIdx = argIdx + 1; for k = 1, lockNamesCount do local counter = redis.call('hget', KEYS[i], ARGV[argIdx]); if (counter ~= false) then anyAlive = true; for c=counter, 1, -1 do redis.call('pexpire', KEYS[i+1] .. ':' .. ARGV[argIdx] .. ':rwlock_timeout:' .. c, ARGV[1]); end; end; argIdx = argIdx + 1; end; if (anyAlive) then redis.call('pexpire', KEYS[i], ARGV[1]); table.insert(result, 1); else table.insert(result, 0); end; end; return result;
