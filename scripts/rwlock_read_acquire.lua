-- ReadWriteLock, read acquire: Redisson 3.11.1 to 3.43.x (RedissonReadLock.tryLockInnerAsync;
-- redisson-reference.md 1.4). 3.11.1 (25914b000) made a re-entry keep the longer of the hash's
-- remaining TTL and the lease; before it the re-entry set the lease outright.
-- KEYS[1] = the lock hash `<name>`
-- KEYS[2] = this reader's timeout-key prefix "{<name>}:<uuid>:<tid>:rwlock_timeout"
-- ARGV[1] = lease in ms, ARGV[2] = reader id "<uuid>:<tid>", ARGV[3] = writer id "<uuid>:<tid>:write"
-- The hash holds `mode` (read | write) and one count per holder; every read hold n of a reader
-- has its own key "<prefix>:<n>" with its own PEXPIRE, so that unlock can find the longest lease
-- still owed to a reader.
-- Returns nil when acquired (a free lock, a lock in read mode, or the caller's own write lock),
-- else the hash's remaining PTTL.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
  redis.call('hset', KEYS[1], 'mode', 'read');
  redis.call('hset', KEYS[1], ARGV[2], 1);
  redis.call('set', KEYS[2] .. ':1', 1);
  redis.call('pexpire', KEYS[2] .. ':1', ARGV[1]);
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
