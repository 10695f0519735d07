-- PLANTED BUG (reentrancy story): token_release.lua without the token comparison (the release of
-- the naive lock, in the token lock's place). Whoever's token the key holds, the release deletes it.
-- KEYS[1] = lock name
-- ARGV[1] = the caller's random token (ignored)
return redis.call('del', KEYS[1]);
