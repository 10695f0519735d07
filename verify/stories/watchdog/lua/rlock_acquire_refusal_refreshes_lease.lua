-- PLANTED BUG (watchdog story): rlock_acquire_hincrby.lua that also restarts the lease when it
-- REFUSES the caller (as if "touching" a busy lock were harmless). Every waiter's retry then keeps
-- the current holder's key alive, a dead holder's included.
-- KEYS[1] = lock name
-- ARGV[1] = lease in ms, ARGV[2] = holder id "<client uuid>:<thread id>"
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
redis.call('pexpire', KEYS[1], ARGV[1]);
return redis.call('pttl', KEYS[1]);
