import type { CachedPage, PageLookup, PageStore } from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import type { ScriptRunner } from './scripts-runner.js';
import { entryArgs } from './search.js';

/** Automatic eviction frees down to this share of `maxPageBytes`, so a full cache does not evict on every write. */
const LOW_WATERMARK = 0.9;

/** Keys a SCAN step of `deleteByUrlPrefix` looks at. */
const SCAN_COUNT = 1_000;

/** `text` matched literally in a SCAN pattern. */
const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

function qualifies(cachedAt: number, lookup: PageLookup | undefined, now: number): boolean {
  if (lookup?.maxAge !== undefined && now - cachedAt > lookup.maxAge) return false;
  if (lookup?.minAge !== undefined && now - cachedAt < lookup.minAge) return false;
  return true;
}

/**
 * Cached pages: a hash per page, a sorted set by `cachedAt` (eviction order), a set of keys per URL and a byte
 * counter.
 */
export class RedisPageStore implements PageStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;
  readonly #maxBytes: number;

  readonly #indexes: boolean;

  /** `indexes`: whether pages put with text are indexed (`searchIndex`). */
  constructor(life: Lifecycle, redis: ScriptRunner, maxBytes: number, indexes = false) {
    this.#life = life;
    this.#redis = redis;
    this.#maxBytes = maxBytes;
    this.#indexes = indexes;
  }

  get(key: string, lookup?: PageLookup): Promise<CachedPage | undefined> {
    return this.#life.run(async () => {
      // One read, so that the value and the body are of the same write.
      const [url, cachedAt, value, body] = await this.#redis.client.hmgetBuffer(
        this.#redis.key('page', key),
        'url',
        'cachedAt',
        'value',
        'body',
      );
      if (url == null || cachedAt == null || value == null) return undefined;
      const page: CachedPage = {
        key,
        url: url.toString(),
        cachedAt: Number(cachedAt.toString()),
        value: value.toString(),
      };
      if (body) page.body = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
      return qualifies(page.cachedAt, lookup, lookup?.now ?? Date.now()) ? page : undefined;
    });
  }

  put(page: CachedPage): Promise<void> {
    return this.#life.run(async () => {
      const cap = Number.isFinite(this.#maxBytes) ? this.#maxBytes : -1;
      const low = cap < 0 ? -1 : Math.floor(cap * LOW_WATERMARK);
      const body = page.body ? ['1', page.body] : ['0', ''];
      const search = this.#indexes && page.search ? entryArgs(page.cachedAt, page.search) : [];
      await this.#redis.run('PAGE_PUT', page.key, page.url, page.cachedAt, page.value, cap, low, ...body, ...search);
    });
  }

  /**
   * One script per touch, atomic with any other write of the entry: no batching as in SQLite, since ioredis's
   * auto-pipelining already sends the touches of one turn in one write (measured in docs/decisions.md).
   */
  touch(key: string, cachedAt: number): Promise<boolean> {
    return this.#life.run(async () => Number(await this.#redis.run('PAGE_TOUCH', key, cachedAt)) === 1);
  }

  keysOf(url: string): Promise<string[]> {
    return this.#life.run(() => this.#redis.client.smembers(this.#redis.key('pageurl', url)));
  }

  deleteByUrl(url: string): Promise<number> {
    return this.#life.run(async () => Number(await this.#redis.run('PAGE_DELETE_BY_URL', url)));
  }

  /**
   * Finds the candidates by a SCAN of page keys starting with `prefix` (a kept scrape's key is its url, `scrape:<id>`),
   * a batch at a time so that no script holds Redis for the whole cache; the script checks each url and age.
   */
  deleteByUrlPrefix(prefix: string, cachedBefore: number): Promise<number> {
    return this.#life.run(async () => {
      const base = this.#redis.key('page', '');
      const match = `${globEscape(base)}${globEscape(prefix)}*`;
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, found] = await this.#redis.client.scan(cursor, 'MATCH', match, 'COUNT', SCAN_COUNT);
        cursor = next;
        const keys = found.map((key) => key.slice(base.length));
        if (keys.length)
          deleted += Number(await this.#redis.run('PAGE_DELETE_BY_URL_PREFIX', prefix, cachedBefore, ...keys));
      } while (cursor !== '0');
      return deleted;
    });
  }

  clear(): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run('PAGE_CLEAR');
    });
  }

  prune(options: { olderThan?: number; maxBytes?: number; now?: number }): Promise<number> {
    return this.#life.run(async () => {
      const now = options.now ?? Date.now();
      const cutoff = options.olderThan !== undefined ? now - options.olderThan : '';
      const maxBytes = options.maxBytes !== undefined && Number.isFinite(options.maxBytes) ? options.maxBytes : '';
      return Number(await this.#redis.run('PAGE_PRUNE', cutoff, maxBytes));
    });
  }

  stats(): Promise<{ entries: number; bytes: number }> {
    return this.#life.run(async () => {
      const [entries, bytes] = await Promise.all([
        this.#redis.client.zcard(this.#redis.key('pages')),
        this.#redis.client.get(this.#redis.key('pagebytes')),
      ]);
      return { entries, bytes: Number(bytes ?? 0) };
    });
  }
}
