-- A planted bug for the soundness tests: an RLock unlock that checks the holder but not its count
-- (scripts/rlock_unlock.lua without the hincrby): the first unlock of a re-entered lock frees it.
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;
