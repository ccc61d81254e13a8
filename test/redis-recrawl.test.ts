/**
 * A recrawl of an unchanged site on Redis workers (issue 41): every page answers `304 Not Modified`, and the page
 * cache only moves each copy's `cachedAt` (`PageStore.touch`), writing no value or body again.
 */
import { randomUUID } from 'node:crypto';

import { createRedisStore, redis, type RedisStore } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { ok } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const redisUrl = await testRedis();
const PATHS = ['/a.html', '/b.html', '/c.html', '/d.html'];

let site: ChangingSite;

beforeAll(async () => {
  const pages = Object.fromEntries(
    PATHS.map((path, i) => [
      path,
      { title: `Page ${i}`, text: `The text of page ${i}.`, modifiedAt: Date.UTC(2026, 0, 1) },
    ]),
  );
  site = await startChangingSite(pages);
  // robots.txt and the sitemap carry validators too: they are kept and confirmed as the pages are.
  site.frontierValidators = true;
});

afterAll(async () => {
  await site.close();
});

/** Each page cache hash (pages and the extractions kept beside them) and its `cachedAt`. */
async function pageHashes(store: RedisStore): Promise<Map<string, number>> {
  const keys = await store.client.keys(`${store.prefix}:page:*`);
  const found = new Map<string, number>();
  for (const key of keys) found.set(key, Number(await store.client.hget(key, 'cachedAt')));
  return found;
}

describe.skipIf(!redisUrl)('a recrawl on Redis', () => {
  it('confirms every unchanged page by a touch: no value or body is written again', async () => {
    const prefix = `ck-recrawl-${randomUUID()}`;
    const backend = () => redis({ url: redisUrl!, prefix, taskLockMs: 5_000 });
    const client = new Crawlkit({ backend: backend(), engine: 'http' });
    const worker = new Crawlkit({ backend: backend(), engine: 'http', concurrency: 4 });
    const store = await createRedisStore({ url: redisUrl!, prefix });
    const crawl = async () => {
      const started = ok(await client.crawl({ url: `${site.url}/`, scrapeOptions: { maxAge: 1 } }));
      const done = ok(await client.waitForJob(started.id));
      expect(done.status).toBe('completed');
      return done.data;
    };
    try {
      await worker.startWorker({ sweepIntervalMs: 3_600_000 });
      expect(await crawl()).toHaveLength(PATHS.length + 1);
      const first = await pageHashes(store);
      // A page entry and its kept extraction per page, robots.txt and the sitemap.
      expect(first.size).toBe(2 * (PATHS.length + 1) + 2);
      // A field no write of crawlkit's sets: a `put` replaces the whole hash and drops it, a touch keeps it.
      for (const key of first.keys()) await store.client.hset(key, 'marker', '1');
      await new Promise((resolve) => setTimeout(resolve, 5)); // past maxAge: 1
      site.resetCounts();

      const docs = await crawl();
      expect(docs.map((d) => d.metadata.revalidated)).toEqual(docs.map(() => true));
      expect(site.notModified.size).toBe(PATHS.length + 1 + 2);
      expect(site.full.size).toBe(0);
      const second = await pageHashes(store);
      expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
      for (const key of second.keys()) expect(await store.client.hget(key, 'marker')).toBe('1');
      const pages = [...second].filter(([key]) => !key.includes('|extraction='));
      expect(pages).toHaveLength(PATHS.length + 1 + 2);
      for (const [key, cachedAt] of pages) expect(cachedAt).toBeGreaterThan(first.get(key)!);
    } finally {
      await client.close();
      await worker.close();
      const keys = await store.client.keys(`${prefix}:*`);
      if (keys.length) await store.client.del(...keys);
      await store.close();
    }
  }, 60_000);
});
