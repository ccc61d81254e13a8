import {
  searchableText,
  searchHost,
  searchPostings,
  termCounts,
  type ColumnHits,
  type EntryMeta,
  type PostingSource,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchText,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import type { ScriptRunner } from './scripts-runner.js';

/** What the page and task scripts are given to index an entry (see `SEARCH_HELPERS`). */
export function entryArgs(time: number, text: SearchText): string[] {
  const kept = searchableText(text);
  const counts = termCounts(kept);
  const postings = [...counts.terms]
    .map(([term, hits]) => `${term} ${hits.join(',')} ${counts.positions.get(term)!}`)
    .join('\n');
  const meta = [time, counts.length, searchHost(kept.url), kept.url].join('\t');
  return [meta, String(counts.length), kept.title, kept.description, kept.text, postings];
}

/** Fields read per request: a query over thousands of entries reads them in a few round trips. */
const BATCH = 1_000;

/**
 * The search index in Redis: an inverted index in hashes, written by the page and task scripts, read here and
 * ranked by `searchPostings` (the same BM25 as the memory driver's and SQLite's).
 */
export class RedisSearchIndex implements SearchIndex, PostingSource {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  search(query: SearchQuery): Promise<SearchHit[]> {
    return this.#life.run(() => searchPostings(this, query));
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

  async postings(terms: readonly string[]): Promise<Map<string, Map<string, ColumnHits>>> {
    const pipeline = this.#redis.client.pipeline();
    for (const term of terms) pipeline.hgetall(this.#redis.key('sx', 't', term));
    const replies = (await pipeline.exec()) ?? [];
    const found = new Map<string, Map<string, ColumnHits>>();
    terms.forEach((term, i) => {
      const [error, value] = replies[i] ?? [];
      if (error) throw error;
      const postings = new Map<string, ColumnHits>();
      for (const [id, hits] of Object.entries((value ?? {}) as Record<string, string>)) {
        postings.set(id, hits.split(',').map(Number));
      }
      if (postings.size) found.set(term, postings);
    });
    return found;
  }

  expand(prefix: string): Promise<string[]> {
    return this.#redis.client.zrangebylex(this.#redis.key('sx', 'vocab'), `[${prefix}`, `[${prefix}\xff`);
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

  async positions(terms: readonly string[], ids: readonly string[]): Promise<Map<string, Map<string, string>>> {
    const pipeline = this.#redis.client.pipeline();
    const batches: { term: string; ids: readonly string[] }[] = [];
    for (const term of terms) {
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        batches.push({ term, ids: batch });
        pipeline.hmget(this.#redis.key('sx', 'p', term), ...batch);
      }
    }
    const found = new Map<string, Map<string, string>>(terms.map((term) => [term, new Map()]));
    if (batches.length === 0) return found;
    const replies = (await pipeline.exec()) ?? [];
    batches.forEach(({ term, ids: batch }, i) => {
      const [error, values] = replies[i] ?? [];
      if (error) throw error;
      const of = found.get(term)!;
      (values as (string | null)[]).forEach((value, j) => {
        if (value != null) of.set(batch[j]!, value);
      });
    });
    return found;
  }

  async texts(ids: readonly string[]): Promise<Map<string, SearchText>> {
    const pipeline = this.#redis.client.pipeline();
    for (const id of ids) pipeline.hmget(this.#redis.key('sx', 'e', id), 'title', 'description', 'text');
    const replies = (await pipeline.exec()) ?? [];
    const meta = await this.meta(ids);
    const found = new Map<string, SearchText>();
    ids.forEach((id, i) => {
      const [error, value] = replies[i] ?? [];
      if (error) throw error;
      const [title, description, text] = value as (string | null)[];
      const url = meta.get(id)?.url;
      if (text == null || url === undefined) return;
      found.set(id, { url, title: title ?? '', description: description ?? '', text });
    });
    return found;
  }
}
