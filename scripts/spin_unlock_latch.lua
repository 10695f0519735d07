-- SpinLock unlock, Redisson 3.24.0 onward (#4871): spin_unlock behind the unlock latch, so a resent
-- unlock answers what the first one did. The text of Redisson 3.24.0,
-- RedissonSpinLock.unlockInnerAsync, byte-identical at every tag from 3.24.0 to 4.7.0.
-- KEYS[1] = lock name, KEYS[2] = the latch "redisson_unlock_latch:{<name>}:<request id>"
-- ARGV[1] = lease in ms (internalLockLeaseTime), ARGV[2] = holder id, ARGV[3] = the latch's lifetime
-- Returns 1 when released, 0 when a re-entrant hold remains, nil for a caller that does not hold it.
local val = redis.call('get', KEYS[2]); if val ~= false then return tonumber(val);end; if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[1]); redis.call('set', KEYS[2], 0, 'px', ARGV[3]); return 0; else redis.call('del', KEYS[1]); redis.call('set', KEYS[2], 1, 'px', ARGV[3]); return 1; end; 
