-- SpinLock forceUnlock, Redisson 3.15.0 onward: deletes the key, nobody told. The text of Redisson
-- 3.15.0, RedissonSpinLock.forceUnlockAsync, byte-identical at every tag from 3.15.0 to 4.7.0.
-- KEYS[1] = lock name
-- Returns 1 when a key was deleted, else 0.
if (redis.call('del', KEYS[1]) == 1) then return 1 else return 0 end
