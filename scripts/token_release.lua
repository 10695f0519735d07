-- Token lock release: compare-and-delete (seed 001; the redis.io single-instance lock pattern).
-- The lock was taken with SET <key> <token> NX PX <lease>.
-- KEYS[1] = lock name
-- ARGV[1] = the caller's random token
-- Returns 1 when the caller's lock was deleted, 0 when the key is gone or holds another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]);
else
  return 0;
end;
