-- A "non-reentrant" acquire written from RLock's (rlock_acquire_one_condition): it takes ARGV[3],
-- the re-entry error, but never returns it, so the holder's second acquire is counted, not refused.
-- The mistake a hand-rolled non-reentrant lock makes when it starts from RLock's script.
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);
