/** Lua scripts of the webhook outbox: deliveries queued per job, due in order, updated after each attempt. */

import { JOB_KEYS } from './job-keys.js';

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
      redis.call('HSET', key, 'payload', '')
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
