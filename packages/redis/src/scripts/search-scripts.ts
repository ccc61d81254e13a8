/**
 * Lua helpers of the search index, run inside the page and job scripts so that an entry's text enters and leaves in
 * the same atomic script as its page or result. Layout (under the prefix):
 *
 * - `sx:e:<id>`: hash of an entry: `len` (terms), `title`, `description`, `text`, `terms` (its terms, space-separated);
 * - `sx:t:<term>`: the term's postings, entry id → hits per column and where the term stands in the entry
 *   (`title,description,text|positions`, positions as `@crawlkit/store`'s `encodePositions`). A value written before
 *   positions has no `|positions`: that entry's phrases are read from its text until it is written again;
 * - `sx:meta`: entry id → `time<TAB>len<TAB>host<TAB>url` (one HMGET reads the candidates of a query);
 * - `sx:vocab`: every term (sorted set, score 0: prefixes expand with ZRANGEBYLEX);
 * - `sx:n`: `entries` and `length` (terms summed), for BM25's averages;
 * - `sx:job:<jobId>`: the ids of a job's entries;
 * - `sx:u:<url>`: the ids of a URL's entries, scored by their time (its newest entry is its page's current text);
 * - `sx:rule`: the rule the terms were made by (`TERMS_RULE` in `store/search.ts`), `sx:rule-lock` while one process
 *   writes the entries of an earlier rule again.
 *
 * Entry ids: `p:<page key>` for a page cache entry, `r:<job id>:<seq>` for a job result.
 */
export const SEARCH_HELPERS = `
-- meta: 'time<TAB>len<TAB>host<TAB>url'
local function meta_url(meta)
  return string.match(meta, '^[^\t]*\t[^\t]*\t[^\t]*\t(.*)$')
end
local function unindex(p, id)
  local ek = p .. ':sx:e:' .. id
  local found = redis.call('HMGET', ek, 'terms', 'len')
  if not found[1] then return 0 end
  local meta = redis.call('HGET', p .. ':sx:meta', id)
  if meta then
    local uk = p .. ':sx:u:' .. meta_url(meta)
    redis.call('ZREM', uk, id)
    if redis.call('ZCARD', uk) == 0 then redis.call('DEL', uk) end
  end
  for term in string.gmatch(found[1], '%S+') do
    local tk = p .. ':sx:t:' .. term
    redis.call('HDEL', tk, id)
    if redis.call('HLEN', tk) == 0 then redis.call('ZREM', p .. ':sx:vocab', term) end
  end
  redis.call('HINCRBY', p .. ':sx:n', 'entries', -1)
  redis.call('HINCRBY', p .. ':sx:n', 'length', -tonumber(found[2] or '0'))
  redis.call('HDEL', p .. ':sx:meta', id)
  redis.call('DEL', ek)
  return 1
end
-- entry: meta, len, title, description, text, postings ('term posting' lines)
local function index(p, id, meta, len, title, description, text, postings)
  unindex(p, id)
  local terms = {}
  for term, posting in string.gmatch(postings, '(%S+) (%S+)') do
    redis.call('HSET', p .. ':sx:t:' .. term, id, posting)
    redis.call('ZADD', p .. ':sx:vocab', 0, term)
    terms[#terms + 1] = term
  end
  redis.call('HSET', p .. ':sx:e:' .. id, 'len', len, 'title', title, 'description', description, 'text', text,
    'terms', table.concat(terms, ' '))
  redis.call('HSET', p .. ':sx:meta', id, meta)
  redis.call('ZADD', p .. ':sx:u:' .. meta_url(meta), tonumber(string.match(meta, '^[^\t]*')), id)
  redis.call('HINCRBY', p .. ':sx:n', 'entries', 1)
  redis.call('HINCRBY', p .. ':sx:n', 'length', tonumber(len))
end
local function unindex_job(p, job)
  local jk = p .. ':sx:job:' .. job
  for _, id in ipairs(redis.call('SMEMBERS', jk)) do unindex(p, id) end
  redis.call('DEL', jk)
end
`;

/**
 * ARGV: prefix, entry id, its terms as read, then its entry by the current rule (`entryArgs`: meta, len, title,
 * description, text, postings). Writes the entry again unless it changed since it was read (a page stored meanwhile is
 * indexed by the current rule already): returns 1 when written, 0 when left.
 */
export const SEARCH_REINDEX = `${SEARCH_HELPERS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('HGET', p .. ':sx:e:' .. id, 'terms') ~= ARGV[3] then return 0 end
index(p, id, ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
return 1
`;
