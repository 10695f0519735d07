-- RLock watchdog renewal: Redisson 2.4.0/3.0.0 onward (seed 002, renewExpiration). Before 2.4.0
-- the watchdog sent a plain PEXPIRE whoever held the key.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms (lockWatchdogTimeout), ARGV[2] = holder id
-- Returns 1 when the holder still holds the lock and its lease restarted, else 0 (the client
-- then cancels renewal).
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;
