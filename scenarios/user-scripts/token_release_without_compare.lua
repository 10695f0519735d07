-- A user's own release script, audited by scenarios/user-script-release-audit.yaml: it was meant
-- to be compare-and-delete, but deletes the key whatever token it holds (the comparison was lost
-- in an edit). Same KEYS/ARGV as scripts/token_release.lua.
if redis.call('exists', KEYS[1]) == 1 then
  return redis.call('del', KEYS[1]);
else
  return 0;
end;
