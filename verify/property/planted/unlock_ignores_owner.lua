-- A planted bug for the exploration tests: an RLock unlock that does not check who holds the lock
-- (the hexists test of scripts/rlock_unlock.lua is gone), so anyone's unlock frees it.
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;
