/**
 * Lua helpers of the search index, run inside the page and job scripts so that an entry's text enters and leaves in
 * the same atomic script as its page or result. A crawled page is two entries (its cache entry and its job's result)
 * of one text: the text and its postings are kept once, as a document named by its digest, shared by its entries.
 * Layout (under the prefix):
 *
 * - `sx:e:<id>`: hash of an entry: `len` (terms) and `doc` (its document). An entry written before documents holds
 *   its own `title`, `description`, `text` and `terms` instead, and its postings are under its own id;
 * - `sx:d:<doc>`: hash of a document: `title`, `description`, `text`, `terms` (its terms, space-separated);
 * - `sx:o:<doc>`: the ids of the entries that hold the document (it goes with the last one);
 * - `sx:t:<term>`: the term's postings, document id (or an earlier entry's id) → hits per column and where the term
 *   stands in the text (`title,description,text|positions`, positions as `@crawlkit/store`'s `encodePositions`). A
 *   value written before positions has no `|positions`: that entry's phrases are read from its text until it is
 *   written again;
 * - `sx:meta`: entry id → `time<TAB>len<TAB>host<TAB>url` (one HMGET reads the candidates of a query);
 * - `sx:vocab`: every term (sorted set, score 0: prefixes expand with ZRANGEBYLEX);
 * - `sx:n`: `entries` and `length` (terms summed), for BM25's averages: counted per entry, as the postings are read;
 * - `sx:job:<jobId>`: the ids of a job's entries;
 * - `sx:u:<url>`: the ids of a URL's entries, scored by their time (its newest entry is its page's current text);
 * - `sx:rule`: the rule the terms were made by (`TERMS_RULE` in `store/search.ts`), `sx:rule-lock` while one process
 *   writes the entries of an earlier rule again.
 *
 * Entry ids: `p:<page key>` for a page cache entry, `r:<job id>:<seq>` for a job result; document ids `d:<digest>`.
 */
export const SEARCH_HELPERS = `
-- meta: 'time<TAB>len<TAB>host<TAB>url'
local function meta_url(meta)
  return string.match(meta, '^[^\t]*\t[^\t]*\t[^\t]*\t(.*)$')
end
-- Takes out the postings of id (a document, or an entry written before documents).
local function unpost(p, terms, id)
  for term in string.gmatch(terms, '%S+') do
    local tk = p .. ':sx:t:' .. term
    redis.call('HDEL', tk, id)
    if redis.call('HLEN', tk) == 0 then redis.call('ZREM', p .. ':sx:vocab', term) end
  end
end
local function unindex(p, id)
  local ek = p .. ':sx:e:' .. id
  local found = redis.call('HMGET', ek, 'terms', 'len', 'doc')
  if not found[1] and not found[3] then return 0 end
  local meta = redis.call('HGET', p .. ':sx:meta', id)
  if meta then
    local uk = p .. ':sx:u:' .. meta_url(meta)
    redis.call('ZREM', uk, id)
    if redis.call('ZCARD', uk) == 0 then redis.call('DEL', uk) end
  end
  if found[3] then
    local ok = p .. ':sx:o:' .. found[3]
    redis.call('SREM', ok, id)
    if redis.call('SCARD', ok) == 0 then
      local dk = p .. ':sx:d:' .. found[3]
      unpost(p, redis.call('HGET', dk, 'terms') or '', found[3])
      redis.call('DEL', dk)
    end
  else
    unpost(p, found[1], id)
  end
  redis.call('HINCRBY', p .. ':sx:n', 'entries', -1)
  redis.call('HINCRBY', p .. ':sx:n', 'length', -tonumber(found[2] or '0'))
  redis.call('HDEL', p .. ':sx:meta', id)
  redis.call('DEL', ek)
  return 1
end
-- entry: doc, meta, len, title, description, text, postings ('term posting' lines). The document's text and
-- postings are written only when no entry holds it yet (a crawl's result of the page its cache entry just stored).
local function index(p, id, doc, meta, len, title, description, text, postings)
  unindex(p, id)
  local dk = p .. ':sx:d:' .. doc
  if redis.call('EXISTS', dk) == 0 then
    local terms = {}
    for term, posting in string.gmatch(postings, '(%S+) (%S+)') do
      redis.call('HSET', p .. ':sx:t:' .. term, doc, posting)
      redis.call('ZADD', p .. ':sx:vocab', 0, term)
      terms[#terms + 1] = term
    end
    redis.call('HSET', dk, 'title', title, 'description', description, 'text', text, 'terms', table.concat(terms, ' '))
  end
  redis.call('SADD', p .. ':sx:o:' .. doc, id)
  redis.call('HSET', p .. ':sx:e:' .. id, 'len', len, 'doc', doc)
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
 * ARGV: prefix, entry id, its terms as read, then its entry by the current rule (`entryArgs`: doc, meta, len, title,
 * description, text, postings). Writes the entry again unless it changed since it was read (a page stored meanwhile is
 * indexed by the current rule already): returns 1 when written, 0 when left.
 */
export const SEARCH_REINDEX = `${SEARCH_HELPERS}
local p = ARGV[1]
local id = ARGV[2]
if redis.call('HGET', p .. ':sx:e:' .. id, 'terms') ~= ARGV[3] then return 0 end
index(p, id, ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10])
return 1
`;
