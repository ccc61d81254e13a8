/** Lua scripts of a job's record: create (with its first tasks), update, delete, expire, and its lease. */

import { JOB_KEYS } from './job-keys.js';
import { SEARCH_HELPERS } from './search-scripts.js';
import { ADD_TASKS } from './task-scripts.js';

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
/**
 * ARGV: prefix, id, now, the SHA-1 (hex) of the expected request, request. Writes `request` only while the job's is the
 * expected one (a batch's is up to a megabyte: its hash goes instead); returns 1 when it did.
 */
export const JOB_REPLACE_REQUEST = `${JOB_KEYS}
local key = jk(ARGV[1], ARGV[2])
local current = redis.call('HGET', key, 'request')
if not current or redis.sha1hex(current) ~= ARGV[4] then return 0 end
redis.call('HSET', key, 'request', ARGV[5], 'updatedAt', ARGV[3])
return 1
`;
/**
 * `JOB_UPDATE` for a patch that ends the job, run even when Redis is at `maxmemory` under `noeviction` (Redis 7's
 * `allow-oom`): a job ended while Redis is full (its store faults past `storeFaultTimeoutMs`, a cancel) reads ended.
 * It writes a few fields of a key that exists.
 */
export const JOB_END = `#!lua flags=allow-oom
${JOB_UPDATE}`;
/**
 * ARGV: prefix, id, at, code, message. Notes a passing store fault on a `scraping` job's hash (`faultSince`,
 * `faultAt`, `faultCode`, `fault`), even at `maxmemory` (`allow-oom`: a few small fields, so that a status read says
 * why the job stalls). `faultSince` is kept while no page was stored since the last note (`updatedAt <= faultAt`).
 * Returns `faultSince`, or nil for a job that is missing or not `scraping`.
 */
/**
 * ARGV: prefix, then job ids. For each job in the ids' order, "status expiresAt resultCount" (the count is the latest
 * result's seq; expiresAt empty when unset), or false for a missing job: one command for the statuses of thousands of
 * jobs, where a pipeline of HMGETs cost the client a command object each, and one reply string a job.
 */
export const JOB_STATUSES = `${JOB_KEYS}
local out = {}
for i = 2, #ARGV do
  local f = redis.call('HMGET', jk(ARGV[1], ARGV[i]), 'status', 'expiresAt')
  if f[1] then
    out[#out + 1] = f[1] .. ' ' .. (f[2] or '') .. ' ' .. redis.call('LLEN', tk(ARGV[1], ARGV[i], 'r'))
  else
    out[#out + 1] = false
  end
end
return out
`;
export const JOB_NOTE_FAULT = `#!lua flags=allow-oom
${JOB_KEYS}
local key = jk(ARGV[1], ARGV[2])
local at = tonumber(ARGV[3])
local f = redis.call('HMGET', key, 'status', 'updatedAt', 'faultSince', 'faultAt')
if f[1] ~= 'scraping' then return nil end
local since = tonumber(f[3])
if not since or not f[4] or tonumber(f[4]) < tonumber(f[2]) then since = at end
redis.call('HSET', key, 'faultSince', since, 'faultAt', math.max(at, tonumber(f[4] or 0)), 'faultCode', ARGV[4],
  'fault', ARGV[5])
return since
`;
const DELETE_JOB = `${SEARCH_HELPERS}
local function delete_job(p, id)
  unindex_job(p, id)
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
/**
 * ARGV: prefix, id, count. Takes the next `count` places of the job's queue order (`j:<id>:qo`) and returns the last.
 * The counter is one of the job's keys: it follows the job's Redis expiry, and a job that is gone (an item of it
 * queued late) gets places from 1 and no counter (before, an INCRBY made one with no expiry, kept for good).
 */
export const JOB_QUEUE_ORDER = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
local n = tonumber(ARGV[3])
if redis.call('EXISTS', jk(p, id)) == 0 then return n end
local key = tk(p, id, 'qo')
local last = redis.call('INCRBY', key, n)
local ttl = redis.call('PTTL', jk(p, id))
if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
return last
`;
