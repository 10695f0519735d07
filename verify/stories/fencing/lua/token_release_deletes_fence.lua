-- PLANTED BUG (verify/stories/fencing/client-reentrant-release-deletes-fence-counter.yaml):
-- scripts/token_release.lua that "cleans up every key of the lock" on release: after its
-- compare-and-delete it also deletes the fence counter "{<name>}:fence". The counter restarts,
-- and the next holder's INCR hands out token 1 again.
-- KEYS[1] = lock name; ARGV[1] = the caller's random token
-- Returns 1 when the caller's lock was deleted, 0 when the key is gone or holds another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', '{' .. KEYS[1] .. '}:fence');
  return redis.call('del', KEYS[1]);
else
  return 0;
end;
