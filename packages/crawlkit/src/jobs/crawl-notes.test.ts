import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createCrawlRules } from '@crawlkit/frontier';
import { createRedisStore } from '@crawlkit/redis';
import { createMemoryStore, createSqliteStore, type JobRecord, type Store } from '@crawlkit/store';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { testRedis } from '../../../../test/setup/redis.ts';
import { storedJobCodec, storedJobOf } from '../codec/records.js';
import { noteFrontier, seedLanding } from './crawl-notes.js';

const redisUrl = await testRedis();
const dirs: string[] = [];
const stores: Store[] = [];
const prefixes: string[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  if (!redisUrl) return;
  for (const prefix of prefixes) {
    const cleaner = await createRedisStore({ url: redisUrl, prefix });
    const keys = await cleaner.client.keys(`${prefix}:*`);
    if (keys.length) await cleaner.client.del(...keys);
    await cleaner.close();
  }
});

/** Two handles on one store, as two processes of a crawl hold them (the memory store: the same one twice). */
const drivers: Record<string, () => Promise<[Store, Store]>> = {
  memory: () => {
    const store = createMemoryStore();
    stores.push(store);
    return Promise.resolve([store, store]);
  },
  sqlite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-crawl-notes-'));
    dirs.push(dir);
    const pair: [Store, Store] = [await createSqliteStore({ dir }), await createSqliteStore({ dir })];
    stores.push(...pair);
    return pair;
  },
  redis: async () => {
    const prefix = `ck-notes-${randomUUID()}`;
    prefixes.push(prefix);
    const pair: [Store, Store] = [
      await createRedisStore({ url: redisUrl!, prefix }),
      await createRedisStore({ url: redisUrl!, prefix }),
    ];
    stores.push(...pair);
    return pair;
  },
};

const SEED = 'https://example.com/latest';

/** A crawl job as `crawl()` stores it, or with the envelope given (one stored by an older crawlkit). */
async function crawlJob(
  store: Store,
  envelope: Parameters<typeof storedJobCodec.encode>[0] = { request: { url: SEED }, seedAwaited: true },
): Promise<JobRecord> {
  const now = Date.now();
  const job: JobRecord = {
    id: randomUUID(),
    kind: 'crawl',
    status: 'scraping',
    request: storedJobCodec.encode(envelope),
    createdAt: now,
    updatedAt: now,
    creditsUsed: 0,
  };
  await store.jobs.create(job, []);
  return job;
}

/**
 * `store` whose next `jobs.get` of the job, once read, waits until `release()`: the reader holds what it read while
 * the other writer goes through. `read` resolves when that read is done.
 */
function pausedAfterRead(store: Store): { store: Store; read: Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let onRead!: () => void;
  const read = new Promise<void>((resolve) => (onRead = resolve));
  let paused = false;
  const jobs = new Proxy(store.jobs, {
    get(target, property) {
      if (property === 'get') {
        return async (id: string) => {
          const record = await target.get(id);
          if (!paused) {
            paused = true;
            onRead();
            await released;
          }
          return record;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const slow = new Proxy(store, {
    get: (target, property) => (property === 'jobs' ? jobs : Reflect.get(target, property, target)),
  });
  return { store: slow, read, release };
}

for (const [name, open] of Object.entries(drivers)) {
  describe.skipIf(name === 'redis' && !redisUrl)(`a crawl's notes in its stored job (${name})`, () => {
    it('a frontier note written over a seed landing read before it keeps the landing', async () => {
      const [a, b] = await open();
      const job = await crawlJob(a);
      const slow = pausedAfterRead(a);
      const noting = noteFrontier(slow.store, job.id, { robotsUnavailable: 'robots.txt answered 500' });
      await slow.read;
      await seedLanding(b, job, createCrawlRules({ seedUrl: SEED })).land('https://example.com/v2/');
      slow.release();
      await noting;
      const stored = storedJobOf((await b.jobs.get(job.id))!);
      expect(stored).toMatchObject({
        seedLanded: 'https://example.com/v2/',
        robotsUnavailable: 'robots.txt answered 500',
      });
    });

    it('a seed landing written over a frontier note read before it keeps the note', async () => {
      const [a, b] = await open();
      const job = await crawlJob(a);
      const slow = pausedAfterRead(a);
      const landing = seedLanding(slow.store, job, createCrawlRules({ seedUrl: SEED })).land('https://example.com/v2/');
      await slow.read;
      await noteFrontier(b, job.id, {
        sitemapsUnreadable: [{ url: 'https://example.com/sitemap.xml', reason: '404' }],
      });
      slow.release();
      await landing;
      const stored = storedJobOf((await b.jobs.get(job.id))!);
      expect(stored).toMatchObject({
        seedLanded: 'https://example.com/v2/',
        sitemapsUnreadable: [{ url: 'https://example.com/sitemap.xml', reason: '404' }],
      });
    });

    it("a field of a newer crawlkit (same record version) is kept through this one's writes: a rolling upgrade", async () => {
      const [a, b] = await open();
      const job = await crawlJob(a);
      // A newer crawlkit's envelope: a field this one does not know, as `seedLanded` was to the one before it.
      const newer = JSON.stringify({ ...JSON.parse(job.request), laterNote: { kept: ['by', 'every', 'writer'] } });
      expect(await a.jobs.replaceRequest(job.id, job.request, newer)).toBe(true);
      await noteFrontier(a, job.id, { robotsUnavailable: 'robots.txt answered 500' });
      await seedLanding(b, job, createCrawlRules({ seedUrl: SEED })).land('https://example.com/v2/');
      const written = JSON.parse((await b.jobs.get(job.id))!.request) as Record<string, unknown>;
      expect(written).toMatchObject({
        v: 1,
        laterNote: { kept: ['by', 'every', 'writer'] },
        robotsUnavailable: 'robots.txt answered 500',
        seedLanded: 'https://example.com/v2/',
      });
      expect(written).not.toHaveProperty('seedAwaited');
    });
  });
}

/** `store` with a count of its job reads. */
function countingReads(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const jobs = new Proxy(store.jobs, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'get') reads++;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: new Proxy(store, {
      get: (target, property) => (property === 'jobs' ? jobs : Reflect.get(target, property, target)),
    }),
    reads: () => reads,
  };
}

describe("a crawl's seed landing, read by a planner that did not fetch the seed", () => {
  it('is not waited for in a crawl stored before the rule: no job read before its pages', async () => {
    const store = createMemoryStore();
    stores.push(store);
    const job = await crawlJob(store, { request: { url: SEED } });
    const counted = countingReads(store);
    const landing = seedLanding(counted.store, job, createCrawlRules({ seedUrl: SEED }));
    expect(landing.known).toBe(true);
    for (let page = 0; page < 5; page++) expect(await landing.learn()).toBe(false);
    expect(counted.reads()).toBe(0);
  });

  it('is read again in a new crawl until it is written, then no more', async () => {
    const store = createMemoryStore();
    stores.push(store);
    const job = await crawlJob(store);
    const counted = countingReads(store);
    const rules = createCrawlRules({ seedUrl: SEED });
    const landing = seedLanding(counted.store, job, rules);
    expect(landing.known).toBe(false);
    expect(await landing.learn()).toBe(false);
    await seedLanding(store, job, createCrawlRules({ seedUrl: SEED })).land('https://example.com/v2/');
    expect(await landing.learn()).toBe(true);
    expect(rules.check('https://example.com/v2/guide').allowed).toBe(true);
    for (let page = 0; page < 5; page++) expect(await landing.learn()).toBe(false);
    expect(counted.reads()).toBe(2);
  });
});
