-- A planted bug for the soundness tests: the watchdog renewal of Redisson before 2.4.0 (#597), a
-- plain PEXPIRE whoever holds the key: a holder that lost its lock keeps the next holder's alive.
if (redis.call('exists', KEYS[1]) == 1) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;
