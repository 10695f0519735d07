-- ReadWriteLock, write acquire: Redisson 3.5.5 onward (RedissonWriteLock.tryLockInnerAsync;
-- redisson-reference.md 1.4). 3.5.5 (#1110) made a re-entry ADD the lease to the remaining TTL
-- instead of setting it. The text of Redisson 3.5.5, byte-identical at every tag from 3.5.5 to 4.7.0.
-- KEYS[1] = the lock hash `<name>`
-- ARGV[1] = lease in ms, ARGV[2] = writer id "<uuid>:<tid>:write"
-- Returns nil when acquired (a free lock, or a re-entry of the caller's own write lock), else the
-- hash's remaining PTTL. A lock in read mode is busy, even when the caller itself reads.
local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('hset', KEYS[1], 'mode', 'write'); redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; if (mode == 'write') then if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); local currentExpire = redis.call('pttl', KEYS[1]); redis.call('pexpire', KEYS[1], currentExpire + ARGV[1]); return nil; end; end;return redis.call('pttl', KEYS[1]);
