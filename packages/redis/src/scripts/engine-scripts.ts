import { JOB_KEYS } from './job-keys.js';

/**
 * ARGV: prefix, jobId, host, page ('http' or 'browser'), maxCount, maxHosts. Counts one page of the host in the job's
 * `eng` hash (`<http>:<browser>`), halving both counts first when they would go over maxCount. Returns the new
 * {http, browser}, or nil when the job already keeps maxHosts other hosts.
 */
export const ENGINE_RECORD = `${JOB_KEYS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('EXISTS', jk(p, id)) == 0 then return redis.error_reply('NOJOB') end
local key = tk(p, id, 'eng')
local old = redis.call('HGET', key, ARGV[3])
local http, browser = 0, 0
if old then
  local a, b = string.match(old, '^(%d+):(%d+)$')
  http, browser = tonumber(a), tonumber(b)
elseif redis.call('HLEN', key) >= tonumber(ARGV[6]) then
  return nil
end
if http + browser + 1 > tonumber(ARGV[5]) then
  http = math.floor(http / 2)
  browser = math.floor(browser / 2)
end
if ARGV[4] == 'http' then http = http + 1 else browser = browser + 1 end
redis.call('HSET', key, ARGV[3], http .. ':' .. browser)
return { http, browser }
`;
