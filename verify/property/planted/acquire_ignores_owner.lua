-- A planted bug for the soundness tests: an RLock acquire that never asks who holds the lock (the
-- exists/hexists test of scripts/rlock_acquire_hincrby.lua is gone), so every caller is let in.
redis.call('hincrby', KEYS[1], ARGV[2], 1);
redis.call('pexpire', KEYS[1], ARGV[1]);
return nil;
