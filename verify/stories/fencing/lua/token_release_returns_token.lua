-- PLANTED BUG (verify/stories/fencing/token-release-returns-token-second-thread.yaml): scripts/
-- token_release.lua that, after its compare-and-delete, "gives back" the fencing token by
-- decrementing the fence counter "{<name>}:fence" (a well-meant attempt to keep tokens dense).
-- The next INCR hands out the very token the last holder used.
-- KEYS[1] = lock name; ARGV[1] = the caller's random token
-- Returns 1 when the caller's lock was deleted, 0 when the key is gone or holds another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('decr', '{' .. KEYS[1] .. '}:fence');
  return redis.call('del', KEYS[1]);
else
  return 0;
end;
