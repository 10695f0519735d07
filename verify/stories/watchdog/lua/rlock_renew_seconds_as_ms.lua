-- Planted renewal bug: the lease in ms is taken for seconds and multiplied by 1000 (30 000 s, over
-- eight hours), as a renewal that mixes up its units would. Otherwise Redisson's rlock_renew.
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('pexpire', KEYS[1], tonumber(ARGV[1]) * 1000);
  return 1;
end;
return 0;
