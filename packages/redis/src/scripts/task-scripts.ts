/** Lua scripts of a job's tasks (add, claim, complete, release, requeue, drop, list) and its recorded errors. */

import { JOB_KEYS } from './job-keys.js';
import { SEARCH_HELPERS } from './search-scripts.js';

export const ADD_TASKS = `
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
const COMPLETE_TASK = `
-- Completes one task from 7 values of ARGV at i (key, credits, document, hasDocument '1'/'0', error JSON or '',
-- the document's UTF-8 bytes, then the count of search entry values that follow: 0 or 7). Returns {-1, 0} for a
-- duplicate, else {the result seq (0 when no document), the job's storedBytes after it}; and the index past it.
local function complete_task(p, id, now, i)
  local key = ARGV[i]
  local has_doc = ARGV[i + 3] == '1'
  local has_err = ARGV[i + 4] ~= ''
  local search = i + 7
  local next_i = search + tonumber(ARGV[i + 6])
  local state = redis.call('HGET', tk(p, id, 's'), key)
  if state == 'done' or state == 'failed' then return {-1, 0}, next_i end
  local final = 'done'
  if has_err and not has_doc then final = 'failed' end
  leave(p, id, key, state)
  redis.call('HSET', tk(p, id, 's'), key, final)
  redis.call('HINCRBY', tk(p, id, 'n'), final, 1)
  local seq = 0
  if has_doc then
    redis.call('RPUSH', tk(p, id, 'r'), ARGV[i + 2])
    seq = redis.call('RPUSH', tk(p, id, 'rk'), key)
    if next_i > search then
      local eid = 'r:' .. id .. ':' .. seq
      index(p, eid, ARGV[search], ARGV[search + 1], ARGV[search + 2], ARGV[search + 3], ARGV[search + 4],
        ARGV[search + 5], ARGV[search + 6])
      redis.call('SADD', p .. ':sx:job:' .. id, eid)
    end
  end
  if has_err then redis.call('RPUSH', tk(p, id, 'e'), ARGV[i + 4]) end
  redis.call('HINCRBYFLOAT', jk(p, id), 'creditsUsed', ARGV[i + 1])
  local stored = redis.call('HINCRBY', jk(p, id), 'storedBytes', ARGV[i + 5])
  redis.call('HSET', jk(p, id), 'updatedAt', now)
  return {seq, stored}, next_i
end
-- Checks the job and every task of the outcomes from ARGV[first] before any is completed (all or nothing).
local function check_tasks(p, id, first)
  if redis.call('EXISTS', jk(p, id)) == 0 then return redis.error_reply('NOJOB') end
  local i = first
  while ARGV[i] do
    if redis.call('HEXISTS', tk(p, id, 's'), ARGV[i]) == 0 then return redis.error_reply('NOTASK ' .. ARGV[i]) end
    i = i + 7 + tonumber(ARGV[i + 6])
  end
  return nil
end
`;
/** ARGV: prefix, id, now, then one outcome's 7 values (`COMPLETE_TASK`). Returns {seq or -1, storedBytes}. */
export const TASK_COMPLETE = `${JOB_KEYS}${LEAVE_STATE}${SEARCH_HELPERS}${COMPLETE_TASK}
local p = ARGV[1]
local id = ARGV[2]
local refused = check_tasks(p, id, 4)
if refused then return refused end
local reply = complete_task(p, id, ARGV[3], 4)
return reply
`;
/** ARGV: prefix, id, now, then each outcome's values (`COMPLETE_TASK`). Returns flat (seq or -1, storedBytes) pairs. */
export const TASK_COMPLETE_MANY = `${JOB_KEYS}${LEAVE_STATE}${SEARCH_HELPERS}${COMPLETE_TASK}
local p = ARGV[1]
local id = ARGV[2]
local refused = check_tasks(p, id, 4)
if refused then return refused end
local out = {}
local i = 4
while ARGV[i] do
  local reply
  reply, i = complete_task(p, id, ARGV[3], i)
  out[#out + 1] = reply[1]
  out[#out + 1] = reply[2]
end
return out
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
/**
 * ARGV: prefix, id, key, hash, by. Records `<hash> <by>` for the key unless one is recorded (a page's own claim, by
 * the key itself, replaces another page's with another hash); returns the one recorded before, or false.
 */
export const TASK_CLAIM_ALIAS = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
local key = ARGV[3]
if redis.call('EXISTS', jk(p, id)) == 0 then return redis.error_reply('NOJOB') end
local found = redis.call('HGET', tk(p, id, 'al'), key)
local replace = not found
if found and ARGV[5] == key then
  local space = string.find(found, ' ', 1, true)
  replace = string.sub(found, space + 1) ~= key and string.sub(found, 1, space - 1) ~= ARGV[4]
end
if replace then redis.call('HSET', tk(p, id, 'al'), key, ARGV[4] .. ' ' .. ARGV[5]) end
return found
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
