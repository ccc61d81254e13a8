/**
 * ARGV: prefix, name, delta, max ('' for none), min ('' for none). Adds delta to the counter `name` of the prefix's
 * `counters` hash unless the result would pass max or min. Returns the new value as a string, or nil when refused.
 */
export const COUNTER_ADD = `
local key = ARGV[1] .. ':counters'
local value = tonumber(redis.call('HGET', key, ARGV[2]) or '0') + tonumber(ARGV[3])
if ARGV[4] ~= '' and value > tonumber(ARGV[4]) then return nil end
if ARGV[5] ~= '' and value < tonumber(ARGV[5]) then return nil end
redis.call('HSET', key, ARGV[2], string.format('%.17g', value))
return string.format('%.17g', value)
`;
