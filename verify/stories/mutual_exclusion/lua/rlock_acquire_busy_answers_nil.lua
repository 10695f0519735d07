-- PLANTED BUG (verify/stories/mutual_exclusion/multi-busy-part-answers-acquired.yaml): scripts/
-- rlock_acquire_hincrby.lua whose busy branch lost its PTTL: a lock held by someone else answers
-- nil, which Redisson reads as "acquired", though nothing is written for the caller. The caller
-- believes it holds a lock the server never gave it.
-- KEYS[1] = lock name; ARGV[1] = lease in ms; ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil, always (acquired, re-entered, or -- the bug -- busy).
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
return nil;
