/** Lua scripts the workers share politeness and locks through: per-host slots, per-job slots, named locks. */

/**
 * ARGV: prefix, scope, host, delayMs, restMs. The key holds when the host is free again (its last slot plus the
 * spacing, or the end of a rest). With restMs > 0 the host rests that long (a later free time is kept) and 0 is
 * returned; else the slot is taken (0) when the host is free, or the ms left to wait are returned. Uses the server's
 * clock.
 */
export const HOST_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = ARGV[1] .. ':slot:' .. ARGV[2] .. ':' .. ARGV[3]
local free = tonumber(redis.call('GET', key) or '0')
local rest = tonumber(ARGV[5])
if rest > 0 then
  if now + rest > free then redis.call('SET', key, now + rest, 'PX', rest + 1000) end
  return 0
end
if now < free then return free - now end
local delay = tonumber(ARGV[4])
if delay > 0 then redis.call('SET', key, now + delay, 'PX', delay + 1000) end
return 0
`;
/**
 * ARGV: prefix, jobId, holder, limit, leaseMs. 1 when the holder has one of the job's `limit` running slots
 * afterwards. Slots are members of a sorted set scored by their lease's end on the server's clock; expired ones (a
 * dead worker's) are dropped first.
 */
export const JOB_SLOT_TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = ARGV[1] .. ':run:' .. ARGV[2]
local lease = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if not redis.call('ZSCORE', key, ARGV[3]) and redis.call('ZCARD', key) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', key, now + lease, ARGV[3])
redis.call('PEXPIRE', key, lease * 2)
return 1
`;
/** ARGV: prefix, jobId, holder. */
export const JOB_SLOT_RELEASE = `
redis.call('ZREM', ARGV[1] .. ':run:' .. ARGV[2], ARGV[3])
return 1
`;
/** ARGV: prefix, name, owner, ttlMs. 1 when the owner holds the lock afterwards. */
export const LOCK_TAKE = `
local key = ARGV[1] .. ':lock:' .. ARGV[2]
local holder = redis.call('GET', key)
if holder and holder ~= ARGV[3] then return 0 end
redis.call('SET', key, ARGV[3], 'PX', ARGV[4])
return 1
`;
/** ARGV: prefix, name, owner. */
export const LOCK_RELEASE = `
local key = ARGV[1] .. ':lock:' .. ARGV[2]
if redis.call('GET', key) == ARGV[3] then redis.call('DEL', key) end
return 1
`;
/**
 * ARGV: prefix, consumer id, ttlMs. A queue consumer is alive until `ttlMs` from now on the server's clock (`workers`,
 * a sorted set scored by that end; renewed by the consumer, dropped by its close or once its end passed). Allowed
 * at `maxmemory`: a full Redis must not make its workers look gone.
 */
export const WORKER_SEEN = `#!lua flags=allow-oom
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = ARGV[1] .. ':workers'
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
redis.call('ZADD', key, now + ttl, ARGV[2])
redis.call('PEXPIRE', key, ttl * 2)
return 1
`;
/** ARGV: prefix, consumer id. */
export const WORKER_GONE = `
redis.call('ZREM', ARGV[1] .. ':workers', ARGV[2])
return 1
`;
/** ARGV: prefix. The queue consumers alive now. */
export const WORKERS_ALIVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', ARGV[1] .. ':workers', '(' .. now, '+inf')
`;
/** ARGV: prefix. The members of the queue consumers alive now (`<id>` or `<id><LF><settings>`). */
export const WORKERS_LIST = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', ARGV[1] .. ':workers', '(' .. now, '+inf')
`;
