/**
 * The Lua scripts of the store. Each runs atomically on the Redis server, which is what makes `add` (limit and
 * de-duplication), `claim`, `complete` (exactly-once results) and leases safe across processes and machines.
 *
 * Every script gets the key prefix as `ARGV[1]` and builds its keys from it (layout in the README), so the
 * store works on one Redis server or a primary with replicas, not on Redis Cluster.
 */

import { ENGINE_RECORD } from './scripts/engine-scripts.js';
import { JOB_KEYS } from './scripts/job-keys.js';

const PAGE_HELPERS = `
local function delete_page(p, key)
  local hk = p .. ':page:' .. key
  local old = redis.call('HMGET', hk, 'url', 'value')
  if not old[1] then
    redis.call('ZREM', p .. ':pages', key)
    return 0
  end
  redis.call('SREM', p .. ':pageurl:' .. old[1], key)
  redis.call('DECRBY', p .. ':pagebytes', string.len(old[2]))
  redis.call('DEL', hk)
  redis.call('ZREM', p .. ':pages', key)
  return 1
end
local function bytes(p) return tonumber(redis.call('GET', p .. ':pagebytes') or '0') end
local function evict_to(p, target)
  local n = 0
  while bytes(p) > target do
    local oldest = redis.call('ZRANGE', p .. ':pages', 0, 0)
    if #oldest == 0 then break end
    n = n + delete_page(p, oldest[1])
  end
  return n
end
`;

/** ARGV: prefix, key, url, cachedAt, value, cap (-1: none), low watermark bytes. */
export const PAGE_PUT = `${PAGE_HELPERS}
local p = ARGV[1]
local key = ARGV[2]
delete_page(p, key)
local hk = p .. ':page:' .. key
redis.call('HSET', hk, 'url', ARGV[3], 'cachedAt', ARGV[4], 'value', ARGV[5])
redis.call('ZADD', p .. ':pages', ARGV[4], key)
redis.call('SADD', p .. ':pageurl:' .. ARGV[3], key)
redis.call('INCRBY', p .. ':pagebytes', string.len(ARGV[5]))
local cap = tonumber(ARGV[6])
if cap >= 0 and bytes(p) > cap then evict_to(p, tonumber(ARGV[7])) end
return 1
`;

/** ARGV: prefix, url. Returns how many pages were deleted. */
export const PAGE_DELETE_BY_URL = `${PAGE_HELPERS}
local p = ARGV[1]
local keys = redis.call('SMEMBERS', p .. ':pageurl:' .. ARGV[2])
local n = 0
for _, key in ipairs(keys) do n = n + delete_page(p, key) end
redis.call('DEL', p .. ':pageurl:' .. ARGV[2])
return n
`;

/** ARGV: prefix. */
export const PAGE_CLEAR = `${PAGE_HELPERS}
local p = ARGV[1]
local keys = redis.call('ZRANGE', p .. ':pages', 0, -1)
for _, key in ipairs(keys) do delete_page(p, key) end
redis.call('DEL', p .. ':pagebytes')
return #keys
`;

/** ARGV: prefix, cutoff (cachedAt below it goes; '' for none), maxBytes ('' for none). */
export const PAGE_PRUNE = `${PAGE_HELPERS}
local p = ARGV[1]
local n = 0
if ARGV[2] ~= '' then
  local old = redis.call('ZRANGEBYSCORE', p .. ':pages', '-inf', '(' .. ARGV[2])
  for _, key in ipairs(old) do n = n + delete_page(p, key) end
end
if ARGV[3] ~= '' then n = n + evict_to(p, tonumber(ARGV[3])) end
return n
`;

const ADD_TASKS = `
-- Adds tasks given as (key, input) pairs from ARGV[first]; returns the 1-based indexes of the pairs added.
local function add_tasks(p, id, limit, not_before, first)
  local n = tk(p, id, 'n')
  local size = tonumber(redis.call('HGET', n, 'size') or '0')
  local added = {}
  local i = first
  local index = 1
  while ARGV[i] do
    if limit >= 0 and size >= limit then break end
    local key = ARGV[i]
    if redis.call('HSETNX', tk(p, id, 't'), key, ARGV[i + 1]) == 1 then
      size = size + 1
      redis.call('HSET', tk(p, id, 's'), key, 'queued')
      redis.call('HSET', tk(p, id, 'seq'), key, size)
      redis.call('HSET', tk(p, id, 'att'), key, 0)
      redis.call('HSET', tk(p, id, 'nb'), key, not_before)
      redis.call('ZADD', tk(p, id, 'q'), size, key)
      added[#added + 1] = index
    end
    i = i + 2
    index = index + 1
  end
  redis.call('HSET', n, 'size', size)
  redis.call('HINCRBY', n, 'queued', #added)
  return added
end
`;

/** ARGV: prefix, id, createdAt, expiresAt ('' for none), field/value count, fields..., then task (key, input) pairs. */
export const JOB_CREATE = `${JOB_KEYS}${ADD_TASKS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('EXISTS', jk(p, id)) == 1 then return redis.error_reply('EXISTS') end
local count = tonumber(ARGV[5])
local fields = {}
for i = 6, 5 + count do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', jk(p, id), unpack(fields))
redis.call('ZADD', p .. ':jobs', ARGV[3], id)
if ARGV[4] ~= '' then redis.call('ZADD', p .. ':jobsexp', ARGV[4], id) end
redis.call('HSET', tk(p, id, 'n'), 'size', 0, 'queued', 0, 'active', 0, 'done', 0, 'failed', 0)
add_tasks(p, id, -1, 0, 6 + count)
return 1
`;

/**
 * ARGV: prefix, id, now, then (field, value) pairs; an empty value deletes the field. Setting `expiresAt` also sets
 * a Redis expiry on every key of the job (an hour after it, so `deleteExpired` normally runs first and Redis frees
 * the memory even when no engine calls it); clearing it removes the expiry.
 */
export const JOB_UPDATE = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('EXISTS', jk(p, id)) == 0 then return 0 end
local expiry = nil
local i = 4
while ARGV[i] do
  local field, value = ARGV[i], ARGV[i + 1]
  if value == '' then
    redis.call('HDEL', jk(p, id), field)
    if field == 'expiresAt' then
      redis.call('ZREM', p .. ':jobsexp', id)
      expiry = -1
    end
  else
    redis.call('HSET', jk(p, id), field, value)
    if field == 'expiresAt' then
      redis.call('ZADD', p .. ':jobsexp', value, id)
      expiry = math.max(tonumber(value), tonumber(ARGV[3])) + 3600000
    end
    if field == 'createdAt' then redis.call('ZADD', p .. ':jobs', value, id) end
  end
  i = i + 2
end
if expiry then
  local keys = { jk(p, id) }
  for _, part in ipairs(JOB_PARTS) do keys[#keys + 1] = tk(p, id, part) end
  for _, did in ipairs(redis.call('SMEMBERS', tk(p, id, 'dall'))) do keys[#keys + 1] = p .. ':d:' .. did end
  for _, key in ipairs(keys) do
    if expiry < 0 then redis.call('PERSIST', key) else redis.call('PEXPIREAT', key, expiry) end
  end
end
return 1
`;

const DELETE_JOB = `
local function delete_job(p, id)
  for _, did in ipairs(redis.call('SMEMBERS', tk(p, id, 'dall'))) do redis.call('DEL', p .. ':d:' .. did) end
  redis.call('DEL', jk(p, id))
  for _, part in ipairs(JOB_PARTS) do
    redis.call('DEL', tk(p, id, part))
  end
  redis.call('ZREM', p .. ':jobs', id)
  redis.call('ZREM', p .. ':jobsexp', id)
  redis.call('SREM', p .. ':djobs', id)
end
`;

/** ARGV: prefix, id. */
export const JOB_DELETE = `${JOB_KEYS}${DELETE_JOB}
delete_job(ARGV[1], ARGV[2])
return 1
`;

/** ARGV: prefix, now. Returns the ids deleted. */
export const JOB_DELETE_EXPIRED = `${JOB_KEYS}${DELETE_JOB}
local p = ARGV[1]
local ids = redis.call('ZRANGEBYSCORE', p .. ':jobsexp', '-inf', ARGV[2])
for _, id in ipairs(ids) do delete_job(p, id) end
return ids
`;

/** ARGV: prefix, id, owner, ttlMs, now. */
export const JOB_ACQUIRE_LEASE = `${JOB_KEYS}
local p = ARGV[1]
local key = jk(p, ARGV[2])
if redis.call('EXISTS', key) == 0 then return 0 end
local lease = redis.call('HMGET', key, 'leaseOwner', 'leaseUntil')
local now = tonumber(ARGV[5])
if lease[1] and lease[1] ~= ARGV[3] and tonumber(lease[2]) > now then return 0 end
redis.call('HSET', key, 'leaseOwner', ARGV[3], 'leaseUntil', now + tonumber(ARGV[4]))
return 1
`;

/** ARGV: prefix, id, owner. */
export const JOB_RELEASE_LEASE = `${JOB_KEYS}
local key = jk(ARGV[1], ARGV[2])
if redis.call('HGET', key, 'leaseOwner') == ARGV[3] then redis.call('HDEL', key, 'leaseOwner', 'leaseUntil') end
return 1
`;

/** ARGV: prefix, id, limit (-1: none), notBefore, then (key, input) pairs. Returns the indexes added. */
export const TASK_ADD = `${JOB_KEYS}${ADD_TASKS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('EXISTS', jk(p, id)) == 0 then return redis.error_reply('NOJOB') end
return add_tasks(p, id, tonumber(ARGV[3]), ARGV[4], 5)
`;

/** ARGV: prefix, id, count, now. Returns flat (key, input, seq, attempts, notBefore) tuples. */
export const TASK_CLAIM = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
local count = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local picked = {}
local offset = 0
while #picked < count do
  local chunk = redis.call('ZRANGE', tk(p, id, 'q'), offset, offset + 199)
  if #chunk == 0 then break end
  local nbs = redis.call('HMGET', tk(p, id, 'nb'), unpack(chunk))
  for i, key in ipairs(chunk) do
    if tonumber(nbs[i]) <= now then
      picked[#picked + 1] = key
      if #picked >= count then break end
    end
  end
  offset = offset + 200
end
local out = {}
for _, key in ipairs(picked) do
  redis.call('ZREM', tk(p, id, 'q'), key)
  redis.call('HSET', tk(p, id, 's'), key, 'active')
  redis.call('SADD', tk(p, id, 'a'), key)
  local attempts = redis.call('HINCRBY', tk(p, id, 'att'), key, 1)
  out[#out + 1] = key
  out[#out + 1] = redis.call('HGET', tk(p, id, 't'), key)
  out[#out + 1] = redis.call('HGET', tk(p, id, 'seq'), key)
  out[#out + 1] = attempts
  out[#out + 1] = redis.call('HGET', tk(p, id, 'nb'), key)
end
if #picked > 0 then
  redis.call('HINCRBY', tk(p, id, 'n'), 'queued', -#picked)
  redis.call('HINCRBY', tk(p, id, 'n'), 'active', #picked)
end
return out
`;

const LEAVE_STATE = `
-- Takes a task out of its current state's index and count.
local function leave(p, id, key, state)
  if state == 'queued' then
    redis.call('ZREM', tk(p, id, 'q'), key)
    redis.call('HINCRBY', tk(p, id, 'n'), 'queued', -1)
  elseif state == 'active' then
    redis.call('SREM', tk(p, id, 'a'), key)
    redis.call('HINCRBY', tk(p, id, 'n'), 'active', -1)
  end
end
local function requeue(p, id, key, not_before)
  redis.call('HSET', tk(p, id, 's'), key, 'queued')
  redis.call('HSET', tk(p, id, 'nb'), key, not_before)
  redis.call('ZADD', tk(p, id, 'q'), redis.call('HGET', tk(p, id, 'seq'), key), key)
  redis.call('HINCRBY', tk(p, id, 'n'), 'queued', 1)
end
`;

/**
 * ARGV: prefix, id, key, credits, now, document ('' flag in ARGV[7]), hasDocument ('1'/'0'), error JSON ('' for none),
 * the document's UTF-8 bytes. Returns {-1, 0} for a duplicate, else {the result seq (0 when no document), the job's
 * storedBytes after it}.
 */
export const TASK_COMPLETE = `${JOB_KEYS}${LEAVE_STATE}
local p = ARGV[1]
local id = ARGV[2]
local key = ARGV[3]
if redis.call('EXISTS', jk(p, id)) == 0 then return redis.error_reply('NOJOB') end
local state = redis.call('HGET', tk(p, id, 's'), key)
if not state then return redis.error_reply('NOTASK') end
if state == 'done' or state == 'failed' then return {-1, 0} end
local has_doc = ARGV[7] == '1'
local has_err = ARGV[8] ~= ''
local final = 'done'
if has_err and not has_doc then final = 'failed' end
leave(p, id, key, state)
redis.call('HSET', tk(p, id, 's'), key, final)
redis.call('HINCRBY', tk(p, id, 'n'), final, 1)
local seq = 0
if has_doc then
  redis.call('RPUSH', tk(p, id, 'r'), ARGV[6])
  seq = redis.call('RPUSH', tk(p, id, 'rk'), key)
end
if has_err then redis.call('RPUSH', tk(p, id, 'e'), ARGV[8]) end
redis.call('HINCRBYFLOAT', jk(p, id), 'creditsUsed', ARGV[4])
local stored = redis.call('HINCRBY', jk(p, id), 'storedBytes', ARGV[9])
redis.call('HSET', jk(p, id), 'updatedAt', ARGV[5])
return {seq, stored}
`;

/** ARGV: prefix, id, key, notBefore. */
export const TASK_RELEASE = `${JOB_KEYS}${LEAVE_STATE}
local p = ARGV[1]
local id = ARGV[2]
local key = ARGV[3]
if redis.call('HGET', tk(p, id, 's'), key) ~= 'active' then return 0 end
leave(p, id, key, 'active')
requeue(p, id, key, ARGV[4])
return 1
`;

/** ARGV: prefix, id. Returns how many were requeued. */
export const TASK_REQUEUE_ACTIVE = `${JOB_KEYS}${LEAVE_STATE}
local p = ARGV[1]
local id = ARGV[2]
local keys = redis.call('SMEMBERS', tk(p, id, 'a'))
for _, key in ipairs(keys) do
  leave(p, id, key, 'active')
  requeue(p, id, key, 0)
end
return #keys
`;

/** ARGV: prefix, id. Returns how many were dropped. */
export const TASK_DROP_QUEUED = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
local keys = redis.call('ZRANGE', tk(p, id, 'q'), 0, -1)
for _, key in ipairs(keys) do redis.call('HSET', tk(p, id, 's'), key, 'dropped') end
redis.call('DEL', tk(p, id, 'q'))
if #keys > 0 then redis.call('HINCRBY', tk(p, id, 'n'), 'queued', -#keys) end
return #keys
`;

/** ARGV: prefix, id, error JSON. */
export const RESULT_ADD_ERROR = `${JOB_KEYS}
if redis.call('EXISTS', jk(ARGV[1], ARGV[2])) == 0 then return redis.error_reply('NOJOB') end
redis.call('RPUSH', tk(ARGV[1], ARGV[2], 'e'), ARGV[3])
return 1
`;

/** ARGV: prefix, id, url. */
export const RESULT_ADD_ROBOTS = `${JOB_KEYS}
if redis.call('EXISTS', jk(ARGV[1], ARGV[2])) == 0 then return redis.error_reply('NOJOB') end
if redis.call('SADD', tk(ARGV[1], ARGV[2], 'rbs'), ARGV[3]) == 1 then
  redis.call('RPUSH', tk(ARGV[1], ARGV[2], 'rb'), ARGV[3])
end
return 1
`;

/** ARGV: prefix, jobId, id, payload, nextAttemptAt, lastError ('' flag in ARGV[7]), hasLastError. Returns the seq. */
export const DELIVERY_ENQUEUE = `${JOB_KEYS}
local p = ARGV[1]
local job = ARGV[2]
local id = ARGV[3]
if redis.call('EXISTS', jk(p, job)) == 0 then return redis.error_reply('NOJOB') end
if redis.call('EXISTS', p .. ':d:' .. id) == 1 then return redis.error_reply('EXISTS') end
local seq = redis.call('HINCRBY', tk(p, job, 'n'), 'dseq', 1)
redis.call('HSET', p .. ':d:' .. id, 'jobId', job, 'seq', seq, 'payload', ARGV[4], 'state', 'pending',
  'attempts', 0, 'nextAttemptAt', ARGV[5])
if ARGV[7] == '1' then redis.call('HSET', p .. ':d:' .. id, 'lastError', ARGV[6]) end
redis.call('ZADD', tk(p, job, 'dq'), seq, id)
redis.call('SADD', tk(p, job, 'dall'), id)
redis.call('SADD', p .. ':djobs', job)
return seq
`;

/** ARGV: prefix, now. Returns the ids of each job's head delivery when due. */
export const DELIVERY_DUE = `${JOB_KEYS}
local p = ARGV[1]
local now = tonumber(ARGV[2])
local out = {}
for _, job in ipairs(redis.call('SMEMBERS', p .. ':djobs')) do
  local head = redis.call('ZRANGE', tk(p, job, 'dq'), 0, 0)
  if #head == 0 then
    redis.call('SREM', p .. ':djobs', job)
  elseif tonumber(redis.call('HGET', p .. ':d:' .. head[1], 'nextAttemptAt')) <= now then
    out[#out + 1] = head[1]
  end
end
return out
`;

/** ARGV: prefix, id, then (field, value) pairs; an empty lastError value deletes it. */
export const DELIVERY_UPDATE = `${JOB_KEYS}
local p = ARGV[1]
local key = p .. ':d:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
local i = 3
while ARGV[i] do
  local field, value = ARGV[i], ARGV[i + 1]
  if field == 'lastError' and ARGV[i + 2] == '0' then
    redis.call('HDEL', key, field)
    i = i + 3
  elseif field == 'lastError' then
    redis.call('HSET', key, field, value)
    i = i + 3
  else
    redis.call('HSET', key, field, value)
    if field == 'state' and value ~= 'pending' then
      redis.call('ZREM', tk(p, redis.call('HGET', key, 'jobId'), 'dq'), ARGV[2])
    elseif field == 'state' then
      local job = redis.call('HGET', key, 'jobId')
      redis.call('ZADD', tk(p, job, 'dq'), redis.call('HGET', key, 'seq'), ARGV[2])
      redis.call('SADD', p .. ':djobs', job)
    end
    i = i + 2
  end
end
return 1
`;

/** ARGV: prefix, history key, scrapedAt, value, keep. */
export const HISTORY_APPEND = `
local p = ARGV[1]
local key = p .. ':h:' .. ARGV[2]
local n = redis.call('INCR', p .. ':hseq')
local member = string.format('%016d', n) .. ':' .. ARGV[4]
redis.call('ZADD', key, ARGV[3], member)
local keep = tonumber(ARGV[5])
redis.call('ZREMRANGEBYRANK', key, 0, -(keep + 1))
return 1
`;

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

/** ARGV: prefix, jobId, offset, limit. Flat (key, input) pairs of queued tasks in seq order. */
export const TASK_QUEUED = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
local from = tonumber(ARGV[3])
local keys = redis.call('ZRANGE', tk(p, id, 'q'), from, from + tonumber(ARGV[4]) - 1)
if #keys == 0 then return {} end
local inputs = redis.call('HMGET', tk(p, id, 't'), unpack(keys))
local out = {}
for i, key in ipairs(keys) do
  out[#out + 1] = key
  out[#out + 1] = inputs[i]
end
return out
`;

/** Every script, by name. */
export const SCRIPTS = {
  PAGE_PUT,
  PAGE_DELETE_BY_URL,
  PAGE_CLEAR,
  PAGE_PRUNE,
  JOB_CREATE,
  JOB_UPDATE,
  JOB_DELETE,
  JOB_DELETE_EXPIRED,
  JOB_ACQUIRE_LEASE,
  JOB_RELEASE_LEASE,
  TASK_ADD,
  TASK_CLAIM,
  TASK_COMPLETE,
  TASK_RELEASE,
  TASK_REQUEUE_ACTIVE,
  TASK_DROP_QUEUED,
  RESULT_ADD_ERROR,
  RESULT_ADD_ROBOTS,
  DELIVERY_ENQUEUE,
  DELIVERY_DUE,
  DELIVERY_UPDATE,
  HISTORY_APPEND,
  HOST_SLOT,
  JOB_SLOT_TAKE,
  JOB_SLOT_RELEASE,
  LOCK_TAKE,
  LOCK_RELEASE,
  TASK_QUEUED,
  ENGINE_RECORD,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
