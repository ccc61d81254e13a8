/**
 * Schedules: `<prefix>:schedules` (hash id → value), `<prefix>:schedule-next` (hash id → next firing, epoch ms) and
 * `<prefix>:schedule-order` (sorted set of ids by creation time).
 */

/** ARGV: prefix, id, value, nextRunAt, createdAt. Adds or replaces a schedule; a replaced one keeps its createdAt. */
export const SCHEDULE_PUT = `
local p = ARGV[1]
redis.call('ZADD', p .. ':schedule-order', 'NX', ARGV[5], ARGV[2])
redis.call('HSET', p .. ':schedules', ARGV[2], ARGV[3])
redis.call('HSET', p .. ':schedule-next', ARGV[2], ARGV[4])
return 1
`;

/** ARGV: prefix, id. Deletes a schedule; returns 1 when there was one. */
export const SCHEDULE_DELETE = `
local p = ARGV[1]
redis.call('ZREM', p .. ':schedule-order', ARGV[2])
redis.call('HDEL', p .. ':schedule-next', ARGV[2])
return redis.call('HDEL', p .. ':schedules', ARGV[2])
`;

/**
 * ARGV: prefix, id, dueAt, nextRunAt. Takes the firing due at dueAt: when the schedule's next firing is still dueAt,
 * sets it to nextRunAt and returns 1; else 0. Times are compared as the strings the store wrote.
 */
export const SCHEDULE_CLAIM = `
local key = ARGV[1] .. ':schedule-next'
if redis.call('HGET', key, ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('HSET', key, ARGV[2], ARGV[4])
return 1
`;
