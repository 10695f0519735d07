-- PLANTED BUG (verify/stories/mutual_exclusion/rlock-acquire-ignores-owner.yaml): scripts/
-- rlock_acquire_hincrby.lua with its guard lost. The real script takes the lock only when the key
-- is missing or already holds the caller's field; this one adds the caller's field to whatever
-- hash is there, so a second owner "re-enters" a lock it never held.
-- KEYS[1] = lock name; ARGV[1] = lease in ms; ARGV[2] = holder id "<client uuid>:<thread id>"
-- Returns nil (acquired), always.
redis.call('hincrby', KEYS[1], ARGV[2], 1);
redis.call('pexpire', KEYS[1], ARGV[1]);
return nil;
