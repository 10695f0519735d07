-- RLock unlock with the unlock latch: Redisson 3.24.0 onward (#4871). A resent unlock (its reply was
-- lost and the client retried) finds the latch and answers what the first one did, instead of
-- decrementing the hold count a second time.
-- KEYS[1] = lock name, KEYS[2] = channel "redisson_lock__channel:{<name>}",
-- KEYS[3] = latch "redisson_unlock_latch:{<name>}:<request id>"
-- ARGV[1] = unlock message (0), ARGV[2] = lease in ms, ARGV[3] = holder id,
-- ARGV[4] = latch lifetime in ms ((timeout + retryInterval) x retryAttempts = 13500 by default)
-- Returns nil when the caller does not hold the lock, 0 when a re-entrant hold remains, 1 when the
-- lock was released and waiters told; a resend returns the first answer.
local val = redis.call('get', KEYS[3]);
if val ~= false then
  return tonumber(val);
end;
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  redis.call('set', KEYS[3], 0, 'px', ARGV[4]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  redis.call('set', KEYS[3], 1, 'px', ARGV[4]);
  return 1;
end;
