/** Lua scripts of the page cache (size cap, eviction oldest first) and of the per-URL history. */

import { SEARCH_HELPERS } from './search-scripts.js';

const PAGE_HELPERS = `${SEARCH_HELPERS}
local function delete_page(p, key)
  unindex(p, 'p:' .. key)
  local hk = p .. ':page:' .. key
  local old = redis.call('HMGET', hk, 'url', 'bytes')
  if not old[1] then
    redis.call('ZREM', p .. ':pages', key)
    return 0
  end
  redis.call('SREM', p .. ':pageurl:' .. old[1], key)
  -- Pages written before bodies were kept have no 'bytes': their size is their value's.
  local size = tonumber(old[2]) or string.len(redis.call('HGET', hk, 'value') or '')
  redis.call('DECRBY', p .. ':pagebytes', size)
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
/**
 * ARGV: prefix, key, url, cachedAt, value, cap (-1: none), low watermark bytes, whether a body follows ('1' / '0'),
 * body, then the page's search entry when it has text (`entryArgs`: doc, meta, len, title, description, text,
 * postings).
 * A page's size is its value's and its body's bytes (Lua strings are bytes).
 */
export const PAGE_PUT = `${PAGE_HELPERS}
local p = ARGV[1]
local key = ARGV[2]
delete_page(p, key)
local hk = p .. ':page:' .. key
local size = string.len(ARGV[5])
redis.call('HSET', hk, 'url', ARGV[3], 'cachedAt', ARGV[4], 'value', ARGV[5])
if ARGV[8] == '1' then
  redis.call('HSET', hk, 'body', ARGV[9])
  size = size + string.len(ARGV[9])
end
redis.call('HSET', hk, 'bytes', size)
redis.call('ZADD', p .. ':pages', ARGV[4], key)
redis.call('SADD', p .. ':pageurl:' .. ARGV[3], key)
redis.call('INCRBY', p .. ':pagebytes', size)
if ARGV[10] then index(p, 'p:' .. key, ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14], ARGV[15], ARGV[16]) end
local cap = tonumber(ARGV[6])
if cap >= 0 and bytes(p) > cap then evict_to(p, tonumber(ARGV[7])) end
return 1
`;
/**
 * ARGV: prefix, key, cachedAt. A copy confirmed as it is (a 304): its `cachedAt`, its place in the age order and
 * its search entry's time move; its value, body, size and text stay. Returns 1, or 0 (nothing changed) for no entry.
 */
export const PAGE_TOUCH = `
local p = ARGV[1]
local key = ARGV[2]
local hk = p .. ':page:' .. key
if redis.call('EXISTS', hk) == 0 then return 0 end
redis.call('HSET', hk, 'cachedAt', ARGV[3])
redis.call('ZADD', p .. ':pages', ARGV[3], key)
local id = 'p:' .. key
local meta = redis.call('HGET', p .. ':sx:meta', id)
if meta then
  -- 'time<TAB>len<TAB>host<TAB>url' (SEARCH_HELPERS): only the time changes, and the entry's place among its URL's.
  local tab = string.find(meta, '\\t', 1, true)
  redis.call('HSET', p .. ':sx:meta', id, ARGV[3] .. string.sub(meta, tab))
  local url = string.match(meta, '^[^\\t]*\\t[^\\t]*\\t[^\\t]*\\t(.*)$')
  redis.call('ZADD', p .. ':sx:u:' .. url, 'XX', tonumber(ARGV[3]), id)
end
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
/**
 * ARGV: prefix, url prefix, cachedBefore, then page keys (found by a SCAN): deletes each whose url starts with the url
 * prefix and whose `cachedAt` is before `cachedBefore`, checked and deleted at once. Returns how many.
 */
export const PAGE_DELETE_BY_URL_PREFIX = `${PAGE_HELPERS}
local p = ARGV[1]
local prefix = ARGV[2]
local before = tonumber(ARGV[3])
local n = 0
for i = 4, #ARGV do
  local at = redis.call('HMGET', p .. ':page:' .. ARGV[i], 'url', 'cachedAt')
  if at[1] and string.sub(at[1], 1, #prefix) == prefix and tonumber(at[2]) < before then
    n = n + delete_page(p, ARGV[i])
  end
end
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
 * ARGV: prefix, before (epoch ms), then history keys (tag NUL url): deletes each whose latest entry is older than
 * `before`, checked and deleted at once, so an entry appended meanwhile keeps its history. Returns how many.
 */
export const HISTORY_PRUNE = `
local p = ARGV[1]
local before = tonumber(ARGV[2])
local n = 0
for i = 3, #ARGV do
  local key = p .. ':h:' .. ARGV[i]
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] ~= nil and tonumber(last[2]) < before then
    redis.call('DEL', key)
    n = n + 1
  end
end
return n
`;
