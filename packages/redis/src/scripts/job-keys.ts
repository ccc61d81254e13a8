/** Lua helpers naming a job's keys, and every per-job part `JOB_DELETE` removes (layout in the README). */
export const JOB_KEYS = `
local function jk(p, id) return p .. ':job:' .. id end
local function tk(p, id, part) return p .. ':j:' .. id .. ':' .. part end
local JOB_PARTS = { 'n', 't', 's', 'seq', 'att', 'nb', 'q', 'a', 'r', 'rk', 'e', 'rb', 'rbs', 'dq', 'dall', 'eng', 'qo', 'al' }
`;
