/**
 * The page cache through the real `Crawlkit` against a real local server (reference §8, issue 5): a store shared by
 * engines and processes, kept across a kill, maintained, capped and skipped under zero data retention (the site:
 * helpers/cache-site.ts).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

import { Crawlkit } from 'crawlkit';
import { beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { doc, serialOf, sleep, useCacheSite } from './helpers/cache-site.ts';

let server: FixtureServer;
let ck: Crawlkit;
let storeDir: string;
const { root, freshUrl, fetchesOf } = useCacheSite((started) => ({ server, ck, storeDir } = started));

describe('persistence and maintenance', () => {
  // The kill test's child runs the build: built here, under the hook's time, not the test's.
  beforeAll(() => void ensureBuilt());

  it('a second engine on the same store directory is served from disk', async () => {
    const { url, path } = freshUrl();
    const dir = join(root, 'two-engines');
    const one = new Crawlkit({ storeDir: dir, engine: 'http' });
    const stored = doc(await one.scrape({ url }));
    await one.close();

    const two = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const hit = doc(await two.scrape({ url }));
      expect(hit.metadata.cacheState).toBe('hit');
      expect(serialOf(hit)).toBe(serialOf(stored));
      expect(fetchesOf(path)).toBe(1);
    } finally {
      await two.close();
    }
  });

  it('a process killed between the answer and the cache write loses the cache entry only', async () => {
    const { url, path } = freshUrl();
    const dir = join(root, 'killed');
    // Not spawnSync: this process serves the child's page.
    const run = await new Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
      const helper = (name: string) => fileURLToPath(new URL(`./helpers/${name}`, import.meta.url));
      // It answers, prints its cacheState and is killed in the same turn: its page is not committed yet.
      const args = ['--import', helper('built-hooks.ts'), helper('cache-write-kill-child.ts'), dir, url];
      const proc = spawn(process.execPath, args);
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      proc.on('close', (_code, signal) => resolve({ signal, stdout, stderr }));
    });
    expect(run.signal, run.stderr).toBe('SIGKILL');
    expect(run.stdout).toBe('"miss"');
    const raw = new DatabaseSync(join(dir, 'crawlkit.db'));
    expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(raw.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 0 });
    raw.close();
    // The next engine fetches the page again, and keeps it.
    const next = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      expect(doc(await next.scrape({ url })).metadata.cacheState).toBe('miss');
    } finally {
      await next.close();
    }
    expect(fetchesOf(path)).toBe(2);
  });

  it('two engines open at once share the cache', async () => {
    const { url, path } = freshUrl();
    const other = new Crawlkit({ storeDir, engine: 'http' });
    try {
      const stored = doc(await other.scrape({ url }));
      // Its cache write commits after the answer, at the end of the turn: the other engine sees the page from then.
      await new Promise((resolve) => setImmediate(resolve));
      const hit = doc(await ck.scrape({ url }));
      expect(hit.metadata.cacheState).toBe('hit');
      expect(serialOf(hit)).toBe(serialOf(stored));
      // A refresh by one is seen by the other at once (the hot tier re-validates).
      const refreshed = doc(await other.scrape({ url, maxAge: 0 }));
      await new Promise((resolve) => setImmediate(resolve));
      expect(serialOf(doc(await ck.scrape({ url })))).toBe(serialOf(refreshed));
      expect(fetchesOf(path)).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('cache.clear() empties the cache; cache.prune() drops pages older than maxAgeMs', async () => {
    const dir = join(root, 'maintenance');
    const engine = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const a = freshUrl();
      const b = freshUrl();
      doc(await engine.scrape({ url: a.url }));
      await sleep(1_500);
      doc(await engine.scrape({ url: b.url }));
      expect(await engine.cache.prune({ maxAgeMs: 750 })).toBe(1);
      expect(doc(await engine.scrape({ url: b.url })).metadata.cacheState).toBe('hit');
      expect(doc(await engine.scrape({ url: a.url })).metadata.cacheState).toBe('miss');
      expect(await engine.cache.prune()).toBe(0);

      await engine.cache.clear();
      expect(doc(await engine.scrape({ url: a.url })).metadata.cacheState).toBe('miss');
      expect(doc(await engine.scrape({ url: b.url })).metadata.cacheState).toBe('miss');
      expect(fetchesOf(a.path)).toBe(3);
      expect(fetchesOf(b.path)).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('evicts the oldest pages beyond cache.maxBytes', async () => {
    const dir = join(root, 'capped');
    const probe = new Crawlkit({ storeDir: join(root, 'probe'), engine: 'http' });
    doc(await probe.scrape({ url: freshUrl().url }));
    await probe.close();
    const db = new DatabaseSync(join(root, 'probe', 'crawlkit.db'));
    const { bytes } = db.prepare('SELECT bytes FROM pages').get() as { bytes: number };
    db.close();

    // Three pages fit, the fourth takes the total over the cap and evicts the oldest.
    const engine = new Crawlkit({ storeDir: dir, engine: 'http', cache: { maxBytes: Math.floor(bytes * 3.5) } });
    try {
      const pages = [freshUrl(), freshUrl(), freshUrl(), freshUrl()];
      for (const page of pages) {
        doc(await engine.scrape({ url: page.url }));
        await sleep(2);
      }
      expect(doc(await engine.scrape({ url: pages[3]!.url })).metadata.cacheState).toBe('hit');
      expect(doc(await engine.scrape({ url: pages[2]!.url })).metadata.cacheState).toBe('hit');
      expect(doc(await engine.scrape({ url: pages[0]!.url })).metadata.cacheState).toBe('miss');
      expect(fetchesOf(pages[0]!.path)).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('zeroDataRetention writes nothing to the store files, for a scrape, a batch and a crawl', async () => {
    const dir = join(root, 'zdr');
    const engine = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      // Open the store and write once, so what follows starts from settled files.
      const warm = freshUrl();
      doc(await engine.scrape({ url: warm.url }));
      // Its text waits for the full-text index until the store is idle; a search writes what waits first, so that no
      // write of the warm-up lands in the window measured.
      const settled = await engine.search({ query: 'settle' });
      if (!settled.success) throw new Error(settled.error);
      const snapshot = () =>
        Object.fromEntries(
          readdirSync(dir)
            // The -shm file is SQLite's shared-memory index: readers touch it too.
            .filter((f) => !f.endsWith('-shm'))
            .map((f) => [
              f,
              createHash('sha256')
                .update(readFileSync(join(dir, f)))
                .digest('hex'),
            ]),
        );
      const before = snapshot();

      const page = freshUrl();
      const scraped = doc(await engine.scrape({ url: page.url, zeroDataRetention: true }));
      expect(scraped.metadata.cacheState).toBeUndefined();
      const again = doc(await engine.scrape({ url: page.url, zeroDataRetention: true }));
      expect(serialOf(again)).not.toBe(serialOf(scraped));

      const batch = await engine.batchScrape({ urls: [freshUrl().url, freshUrl().url], zeroDataRetention: true });
      if (!batch.success) throw new Error(batch.error);
      const crawl = await engine.crawl({ url: `${server.url}/cache/`, limit: 3, zeroDataRetention: true });
      if (!crawl.success) throw new Error(crawl.error);
      const batchDone = await engine.waitForJob(batch.id);
      const crawlDone = await engine.waitForJob(crawl.id);
      expect(batchDone.success && batchDone.status).toBe('completed');
      expect(batchDone.success && batchDone.data).toHaveLength(2);
      expect(crawlDone.success && crawlDone.status).toBe('completed');
      expect(await engine.listUnfinishedJobs()).toEqual([]);

      expect(snapshot()).toEqual(before);
      // And nothing was cached for later requests either.
      expect(doc(await engine.scrape({ url: page.url })).metadata.cacheState).toBe('miss');
      expect(fetchesOf(page.path)).toBe(3);
    } finally {
      await engine.close();
    }
  });
});
