/**
 * The page cache through the real `Crawlkit` against a real local server (reference §8, issue 5). Every page of the
 * `/cache/*` route carries a serial unique to that fetch and the server counts fetches per path, so each test tells a
 * hit from a miss by the server's own log, not only by `metadata.cacheState`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

import { Crawlkit, type Document, type ErrorResponse, type ScrapeResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
let serial = 0;
const root = mkdtempSync(join(tmpdir(), 'ck-cache-'));
let ck: Crawlkit;
let storeDir: string;
let nextPage = 0;

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/cache/*': (req, res, ctx) => {
        const n = ++serial;
        const status = ctx.url.searchParams.get('status');
        res.writeHead(status ? Number(status) : 200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><title>Cached ${ctx.url.pathname}</title>` +
            `<meta name="description" content="A page of the cache test."></head><body>` +
            `<nav><a href="/cache/nav">Navigation link</a></nav><main><h1>Heading of ${ctx.url.pathname}</h1>` +
            `<p>Paragraph one of the cache test page, long enough to count as main content for extraction.</p>` +
            `<p>serial ${n}</p><a href="/cache/other">Other page</a></main><footer>Footer text</footer></body></html>`,
        );
      },
    },
  });
  storeDir = join(root, 'shared');
  ck = new Crawlkit({ storeDir, engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh page URL, so that tests do not see each other's cache entries. */
function freshUrl(): { url: string; path: string } {
  const path = `/cache/page-${++nextPage}`;
  return { url: `${server.url}${path}`, path };
}

function fetchesOf(path: string): number {
  return server.requests.filter((r) => r.path === path || r.path.startsWith(`${path}?`)).length;
}

function doc(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`unexpected error: ${response.code} ${response.error}`);
  return response.data;
}

const serialOf = (d: Document) => Number(/serial (\d+)/.exec(d.markdown ?? d.html ?? d.rawHtml ?? '')?.[1]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cache reads and writes (reference §8)', () => {
  it('follows the reference scenario: storeInCache false, miss, hit with cachedAt, maxAge 1, maxAge 0, minAge', async () => {
    const { url, path } = freshUrl();
    const first = doc(await ck.scrape({ url, storeInCache: false }));
    expect(first.metadata.cacheState).toBe('miss');
    expect(first.metadata.cachedAt).toBeUndefined();

    const second = doc(await ck.scrape({ url }));
    expect(second.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);

    const before = Date.now();
    const third = doc(await ck.scrape({ url }));
    expect(third.metadata.cacheState).toBe('hit');
    expect(fetchesOf(path)).toBe(2);
    expect(serialOf(third)).toBe(serialOf(second));
    const cachedAt = Date.parse(third.metadata.cachedAt!);
    expect(cachedAt).toBeLessThanOrEqual(before);
    expect(cachedAt).toBeGreaterThan(before - 10_000);
    expect(third.metadata.cachedAt).toBe(new Date(cachedAt).toISOString());
    // A hit is a full document: same content, its own scrape id, the sourceURL as sent this time.
    expect(third.markdown).toBe(second.markdown);
    expect(third.metadata.scrapeId).not.toBe(second.metadata.scrapeId);
    expect(third.metadata.statusCode).toBe(200);

    await sleep(5);
    const maxAge1 = doc(await ck.scrape({ url, maxAge: 1 }));
    expect(maxAge1.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(3);

    const maxAge0 = doc(await ck.scrape({ url, maxAge: 0 }));
    expect(maxAge0.metadata.cacheState).toBeUndefined();
    expect(maxAge0.metadata.cachedAt).toBeUndefined();
    expect(fetchesOf(path)).toBe(4);

    // maxAge 0 still writes: the next default scrape is served what it fetched.
    const after0 = doc(await ck.scrape({ url }));
    expect(after0.metadata.cacheState).toBe('hit');
    expect(serialOf(after0)).toBe(serialOf(maxAge0));

    const tooYoung = await ck.scrape({ url, minAge: 60_000 });
    expect(tooYoung).toEqual({
      success: false,
      code: 'SCRAPE_NO_CACHED_DATA',
      error: 'No cached data available that meets the specified age requirements.',
    });
    expect(fetchesOf(path)).toBe(4);
  });

  it('minAge serves an old enough entry without fetching, and never fetches when none qualifies', async () => {
    const { url, path } = freshUrl();
    const none = await ck.scrape({ url, minAge: 1 });
    expect(none.success).toBe(false);
    expect((none as ErrorResponse).code).toBe('SCRAPE_NO_CACHED_DATA');
    expect(fetchesOf(path)).toBe(0);

    const stored = doc(await ck.scrape({ url }));
    await sleep(30);
    const old = doc(await ck.scrape({ url, minAge: 20 }));
    expect(old.metadata.cacheState).toBe('hit');
    expect(serialOf(old)).toBe(serialOf(stored));
    expect(fetchesOf(path)).toBe(1);
  });

  it('minAge with options that never read the cache is no cached data, naming them, never a fetch', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    await sleep(30);
    const refused = (await ck.scrape({ url, minAge: 20, headers: { 'x-secret': 'token-value' } })) as ErrorResponse;
    expect(refused).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
    expect(refused.error).toMatch(/^No cached data available that meets the specified age requirements: /);
    expect(refused.error).toContain('headers (x-secret)');
    expect(refused.error).not.toContain('token-value');
    expect(fetchesOf(path)).toBe(1);
  });

  it('headers neither read nor write the cache', async () => {
    const { url, path } = freshUrl();
    const withHeaders = doc(await ck.scrape({ url, headers: { 'x-test': '1' } }));
    expect(withHeaders.metadata.cacheState).toBeUndefined();
    const plain = doc(await ck.scrape({ url }));
    expect(plain.metadata.cacheState).toBe('miss');
    const again = doc(await ck.scrape({ url, headers: { cookie: 'a=b' } }));
    expect(again.metadata.cacheState).toBeUndefined();
    expect(serialOf(again)).not.toBe(serialOf(plain));
    expect(fetchesOf(path)).toBe(3);
  });

  it('actions neither read nor write; the stealth proxy and branding do not read', async () => {
    const { url, path } = freshUrl();
    const withActions = doc(await ck.scrape({ url, actions: [{ type: 'wait', milliseconds: 1 }] }));
    expect(withActions.metadata.cacheState).toBeUndefined();
    expect(doc(await ck.scrape({ url })).metadata.cacheState).toBe('miss');
    const stealth = doc(await ck.scrape({ url, proxy: 'stealth' }));
    expect(stealth.metadata.cacheState).toBeUndefined();
    const branding = doc(await ck.scrape({ url, formats: ['branding'] }));
    expect(branding.metadata.cacheState).toBeUndefined();
    expect(fetchesOf(path)).toBe(4);
  });

  it('a screenshot with its own viewport or quality neither reads nor writes the cache', async () => {
    const { url, path } = freshUrl();
    const plain = { url, formats: ['markdown' as const, 'screenshot' as const] };
    const first = doc(await ck.scrape(plain));
    for (const shot of [{ viewport: { width: 800, height: 600 } }, { quality: 50 }]) {
      const own = doc(await ck.scrape({ url, formats: ['markdown', { type: 'screenshot', ...shot }] }));
      expect(own.metadata.cacheState).toBeUndefined();
    }
    // The cached entry is still the plain screenshot request's page.
    const again = doc(await ck.scrape(plain));
    expect(again.metadata.cacheState).toBe('hit');
    expect(serialOf(again)).toBe(serialOf(first));
    expect(fetchesOf(path)).toBe(3);
  });

  it('changeTracking never takes a cached copy by its age (it needs a fresh page; only a 304 confirms one)', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    const tracked = doc(await ck.scrape({ url, formats: ['markdown', 'changeTracking'] }));
    // Read for its validators only: this page has none, so it is fetched again.
    expect(tracked.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);
  });

  it('a PDF page cap neither reads nor writes the cache', async () => {
    const { url, path } = freshUrl();
    doc(await ck.scrape({ url }));
    const capped = doc(await ck.scrape({ url, parsers: [{ type: 'pdf', maxPages: 2 }] }));
    expect(capped.metadata.cacheState).toBeUndefined();
    expect(fetchesOf(path)).toBe(2);
  });

  it('does not cache error pages', async () => {
    const { url, path } = freshUrl();
    const failing = `${url}?status=503`;
    expect(doc(await ck.scrape({ url: failing })).metadata.statusCode).toBe(503);
    const again = doc(await ck.scrape({ url: failing }));
    expect(again.metadata.cacheState).toBe('miss');
    expect(fetchesOf(path)).toBe(2);
  });
});

describe('the cache key', () => {
  it('serves any formats and extraction options from one entry', async () => {
    const { url, path } = freshUrl();
    const markdown = doc(await ck.scrape({ url, formats: ['markdown'] }));
    const html = doc(await ck.scrape({ url, formats: ['html', 'links', 'rawHtml'], onlyMainContent: false }));
    expect(html.metadata.cacheState).toBe('hit');
    expect(html.html).toContain('Navigation link');
    expect(html.rawHtml).toContain(`serial ${serialOf(markdown)}`);
    expect(html.links).toContain(`${server.url}/cache/other`);
    expect(html.markdown).toBeUndefined();
    const main = doc(await ck.scrape({ url, formats: ['markdown'], excludeTags: ['h1'] }));
    expect(main.metadata.cacheState).toBe('hit');
    expect(main.markdown).not.toContain('Heading of');
    expect(main.markdown).not.toContain('Navigation link');
    expect(main.metadata.title).toBe(`Cached ${path}`);
    expect(fetchesOf(path)).toBe(1);
  });

  it('each hit is a document of its own: changing one changes no later hit', async () => {
    const { url, path } = freshUrl();
    const first = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    const links = [...first.links!];
    first.links!.length = 0;
    first.metadata.title = 'changed';
    const hit = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    expect(hit.metadata.cacheState).toBe('hit');
    expect(hit.links).toEqual(links);
    hit.links!.push('https://changed.example/');
    const again = doc(await ck.scrape({ url, formats: ['markdown', 'links'] }));
    expect(again.links).toEqual(links);
    expect(again.metadata.title).toBe(`Cached ${path}`);
    expect(again.metadata.scrapeId).not.toBe(hit.metadata.scrapeId);
  });

  it('keys mobile, blockAds, waitFor, location country and screenshot kind; languages in any order', async () => {
    const { url, path } = freshUrl();
    const variants: Record<string, unknown>[] = [
      {},
      { mobile: true },
      { blockAds: false },
      { waitFor: 100 },
      { location: { country: 'DE' } },
      { location: { country: 'DE', languages: ['de-DE', 'en-US'] } },
      { formats: ['markdown', 'screenshot'] },
      { formats: ['markdown', { type: 'screenshot', fullPage: true }] },
    ];
    for (const [i, variant] of variants.entries()) {
      const first = doc(await ck.scrape({ url, ...variant }));
      expect(first.metadata.cacheState, JSON.stringify(variant)).toBe('miss');
      expect(fetchesOf(path)).toBe(i + 1);
    }
    for (const variant of variants) {
      const again = doc(await ck.scrape({ url, ...variant }));
      expect(again.metadata.cacheState, JSON.stringify(variant)).toBe('hit');
    }
    const reordered = doc(await ck.scrape({ url, location: { country: 'DE', languages: ['en-US', 'de-DE'] } }));
    expect(reordered.metadata.cacheState).toBe('hit');
    // The URL is normalised: a fragment is the same page.
    expect(doc(await ck.scrape({ url: `${url}#section` })).metadata.cacheState).toBe('hit');
    expect(fetchesOf(path)).toBe(variants.length);
  });
});

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
