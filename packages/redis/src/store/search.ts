import { hash } from 'node:crypto';

import {
  searchableText,
  searchTextDigest,
  searchHost,
  searchPostings,
  countTerms,
  type ColumnHits,
  type EntryMeta,
  type Postings,
  type PostingSource,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchText,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import type { ScriptRunner } from './scripts-runner.js';

/**
 * The document a kept text is (`SEARCH_HELPERS`): its title, description and text's digest, as SQLite's `search_docs`
 * names it. 128 bits of SHA-256: each posting carries it, so it is kept short.
 */
function documentId(kept: SearchText, textDigest: string | undefined): string {
  const digest = textDigest ?? searchTextDigest(kept.text);
  return `d:${hash('sha256', `${kept.title}\0${kept.description}\0${digest}`, 'base64url').slice(0, 22)}`;
}

/** A text's entry but its time: the same for the page's cache entry and its job's result. */
interface Entry {
  doc: string;
  length: number;
  kept: SearchText;
  postings: string;
}

/** Entries made, per text object: crawlkit gives the cache entry and the job's result the same one. */
const made = new WeakMap<SearchText, Entry>();

function entryOf(text: SearchText): Entry {
  let entry = made.get(text);
  if (entry) return entry;
  const kept = searchableText(text);
  const { length, postings } = text.counted ?? countTerms(text);
  entry = { doc: documentId(kept, text.textDigest), length, kept, postings };
  made.set(text, entry);
  return entry;
}

/** What the page and task scripts are given to index an entry (see `SEARCH_HELPERS`). */
export function entryArgs(time: number, text: SearchText): string[] {
  const { doc, length, kept, postings } = entryOf(text);
  const meta = [time, length, searchHost(kept.url), kept.url].join('\t');
  return [doc, meta, String(length), kept.title, kept.description, kept.text, postings];
}

/** The hits of a posting, `title,description,text` up to `end`: read for every entry that holds a word. */
function columnHits(posting: string, end: number): ColumnHits {
  const hits = [0];
  for (let i = 0; i < end; i++) {
    const code = posting.charCodeAt(i);
    if (code === 44) hits.push(0);
    else hits[hits.length - 1] = hits[hits.length - 1]! * 10 + code - 48;
  }
  return hits;
}

/** Fields read per request: a query over thousands of entries reads them in a few round trips. */
const BATCH = 1_000;

/**
 * The rule the index's terms are made by (`sx:rule`, `@crawlkit/store`'s `search/tokens.ts`): 2 since a run of
 * unspaced script is its pairs of characters, 3 since the marks that spell a Thai or Indic word stay in it. An index
 * without it, or with an older one, was written by an earlier version.
 */
const TERMS_RULE = '3';
/** How long one process holds the right to write an index's entries again, renewed as it goes. */
const RULE_LOCK_MS = 60_000;

/**
 * The search index in Redis: an inverted index in hashes, written by the page and task scripts, read here and
 * ranked by `searchPostings` (the same BM25 as the memory driver's and SQLite's).
 */
export class RedisSearchIndex implements SearchIndex, PostingSource {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;
  /** Set once the index's terms are this version's (`#termsByThisRule`). */
  #ruled: Promise<void> | undefined;
  /** The page and task scripts write a text's postings with it: counted on the caller's thread otherwise. */
  readonly countsAhead = true;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  search(query: SearchQuery): Promise<SearchHit[]> {
    return this.#life.run(async () => {
      // Not done (another process at it, or a Redis full or failing: its writes refused): the search reads the
      // index as it is, and the next one tries again.
      await (this.#ruled ??= this.#termsByThisRule().then(
        (done) => void (done || (this.#ruled = undefined)),
        () => void (this.#ruled = undefined),
      ));
      return searchPostings(this, query);
    });
  }

  /**
   * Writes again, before the first search, the entries whose terms an earlier version made (a Chinese sentence was one
   * term): one process does it (`sx:rule-lock`), entry by entry, each unless stored again meanwhile, then marks the
   * index (`sx:rule`). Returns false when another process is at it (its entries are found by their old terms until it
   * is done; the next search looks again).
   */
  async #termsByThisRule(): Promise<boolean> {
    const client = this.#redis.client;
    const rule = this.#redis.key('sx', 'rule');
    if ((await client.get(rule)) === TERMS_RULE) return true;
    const lock = this.#redis.key('sx', 'rule-lock');
    if ((await client.set(lock, '1', 'PX', RULE_LOCK_MS, 'NX')) !== 'OK') return false;
    try {
      let cursor = '0';
      do {
        const [next, fields] = await client.hscan(this.#redis.key('sx', 'meta'), cursor, 'COUNT', 200);
        cursor = next;
        for (let i = 0; i + 1 < fields.length; i += 2) await this.#rewrite(fields[i]!, fields[i + 1]!);
        await client.pexpire(lock, RULE_LOCK_MS);
      } while (cursor !== '0');
      await client.set(rule, TERMS_RULE);
      return true;
    } finally {
      await client.del(lock);
    }
  }

  /**
   * Writes an entry again by this version's terms, when they differ from those it holds. Only entries written before
   * documents hold their text (rule 3 came before them): a document's entry is left as it is.
   */
  async #rewrite(id: string, meta: string): Promise<void> {
    const fields = ['title', 'description', 'text', 'terms'];
    const [title, description, text, terms] = await this.#redis.client.hmget(this.#redis.key('sx', 'e', id), ...fields);
    if (text == null || terms == null) return;
    const [time, , , ...url] = meta.split('\t');
    const args = entryArgs(Number(time), {
      url: url.join('\t'),
      title: title ?? '',
      description: description ?? '',
      text,
    });
    const current = args[6]!.split('\n').map((line) => line.slice(0, line.indexOf(' ')));
    if (current.join(' ') !== terms) await this.#redis.run('SEARCH_REINDEX', id, terms, ...args);
  }

  count(): Promise<number> {
    return this.#life.run(async () =>
      Number((await this.#redis.client.hget(this.#redis.key('sx', 'n'), 'entries')) ?? 0),
    );
  }

  async totals(): Promise<{ entries: number; length: number }> {
    const [entries, length] = await this.#redis.client.hmget(this.#redis.key('sx', 'n'), 'entries', 'length');
    return { entries: Number(entries ?? 0), length: Number(length ?? 0) };
  }

  async postings(terms: readonly string[], placed: ReadonlySet<string>): Promise<Postings> {
    const pipeline = this.#redis.client.pipeline();
    for (const term of terms) pipeline.hgetall(this.#redis.key('sx', 't', term));
    const replies = (await pipeline.exec()) ?? [];
    const read = terms.map((term, i) => {
      const [error, value] = replies[i] ?? [];
      if (error) throw error;
      return (value ?? {}) as Record<string, string>;
    });
    const owners = await this.#owners(new Set(read.flatMap((postings) => Object.keys(postings))));
    const hits = new Map<string, Map<string, ColumnHits>>();
    const positions = new Map<string, Map<string, string>>();
    terms.forEach((term, i) => {
      const postings = new Map<string, ColumnHits>();
      const placedAt = placed.has(term) ? new Map<string, string>() : undefined;
      // 'hits|positions' (`SEARCH_HELPERS`); an entry written before positions has hits only.
      for (const [id, posting] of Object.entries(read[i]!)) {
        const bar = posting.indexOf('|');
        const columns = columnHits(posting, bar < 0 ? posting.length : bar);
        for (const entry of owners.get(id) ?? [id]) {
          postings.set(entry, columns);
          if (placedAt && bar >= 0) placedAt.set(entry, posting.slice(bar + 1));
        }
      }
      if (postings.size) hits.set(term, postings);
      if (placedAt) positions.set(term, placedAt);
    });
    return { hits, positions: (term, id) => positions.get(term)?.get(id) };
  }

  /**
   * The entries that hold each document among `ids` (postings are a document's, ranked per entry as before documents:
   * the same BM25 and answers). An id of an entry written before documents is its own.
   */
  async #owners(ids: ReadonlySet<string>): Promise<Map<string, string[]>> {
    const docs = [...ids].filter((id) => id.startsWith('d:'));
    const owners = new Map<string, string[]>();
    for (let i = 0; i < docs.length; i += BATCH) {
      const pipeline = this.#redis.client.pipeline();
      const batch = docs.slice(i, i + BATCH);
      for (const doc of batch) pipeline.smembers(this.#redis.key('sx', 'o', doc));
      const replies = (await pipeline.exec()) ?? [];
      batch.forEach((doc, j) => {
        const [error, value] = replies[j] ?? [];
        if (error) throw error;
        owners.set(doc, value as string[]);
      });
    }
    return owners;
  }

  expand(prefix: string): Promise<string[]> {
    // Up to the prefix then the byte 0xff, past every UTF-8 byte that may follow it (the string `\xff` is sent as
    // 0xc3 0xbf, before the bytes of a CJK character: `猫*` missed `猫舌`).
    const last = Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]);
    return this.#redis.client.zrangebylex(this.#redis.key('sx', 'vocab'), `[${prefix}`, last);
  }

  async meta(ids: readonly string[]): Promise<Map<string, EntryMeta>> {
    const found = new Map<string, EntryMeta>();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const values = await this.#redis.client.hmget(this.#redis.key('sx', 'meta'), ...batch);
      batch.forEach((id, j) => {
        const value = values[j];
        if (!value) return;
        const [time, length, host, ...url] = value.split('\t');
        const meta: EntryMeta = { id, url: url.join('\t'), host: host!, time: Number(time), length: Number(length) };
        if (id.startsWith('p:')) meta.pageKey = id.slice(2);
        else meta.jobId = id.slice(2, id.lastIndexOf(':'));
        found.set(id, meta);
      });
    }
    return found;
  }

  async newest(urls: readonly string[]): Promise<Map<string, number>> {
    const pipeline = this.#redis.client.pipeline();
    for (const url of urls) pipeline.zrevrange(this.#redis.key('sx', 'u', url), 0, 0, 'WITHSCORES');
    const replies = (await pipeline.exec()) ?? [];
    const times = new Map<string, number>();
    urls.forEach((url, i) => {
      const [error, value] = replies[i] ?? [];
      if (error) throw error;
      const [, score] = value as string[];
      if (score !== undefined) times.set(url, Number(score));
    });
    return times;
  }

  async texts(ids: readonly string[]): Promise<Map<string, SearchText>> {
    const own = await this.#hashes(
      ids.map((id) => this.#redis.key('sx', 'e', id)),
      ['title', 'description', 'text', 'doc'],
    );
    // An entry's text is its document's; one written before documents holds its own.
    const docIds = [...new Set(own.flatMap(([, , , doc]) => (doc == null ? [] : [doc])))];
    const read = await this.#hashes(
      docIds.map((doc) => this.#redis.key('sx', 'd', doc)),
      ['title', 'description', 'text'],
    );
    const docs = new Map(docIds.map((doc, i) => [doc, read[i]!]));
    const meta = await this.meta(ids);
    const found = new Map<string, SearchText>();
    ids.forEach((id, i) => {
      const doc = own[i]![3];
      const [title, description, text] = doc == null ? own[i]! : (docs.get(doc) ?? []);
      const url = meta.get(id)?.url;
      if (text == null || url === undefined) return;
      found.set(id, { url, title: title ?? '', description: description ?? '', text });
    });
    return found;
  }

  /** The `fields` of each hash of `keys`, in one pipeline. */
  async #hashes(keys: readonly string[], fields: readonly string[]): Promise<(string | null)[][]> {
    const pipeline = this.#redis.client.pipeline();
    for (const key of keys) pipeline.hmget(key, ...fields);
    const replies = (await pipeline.exec()) ?? [];
    return keys.map((_, i) => {
      const [error, value] = replies[i] ?? [];
      if (error) throw error;
      return value as (string | null)[];
    });
  }
}
