-- PLANTED BUG (reentrancy story): token_release.lua that checks the token and answers 1 but never
-- deletes the key. The client-reentrant lock's last unlock (its thread's count at 0) reports the
-- lock released while the key stays until its lease runs out.
-- KEYS[1] = lock name
-- ARGV[1] = the caller's random token
if redis.call('get', KEYS[1]) == ARGV[1] then
  return 1;
else
  return 0;
end
