/**
 * A page cache entry crawlkit cannot read (damaged, or written by a newer crawlkit) through the real `Crawlkit` on an
 * on-disk store: it is no copy. Every page carries a serial unique to its fetch, so a refetch is told by the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type Document, type ErrorResponse, type ScrapeResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
let serial = 0;
let nextPage = 0;
const root = mkdtempSync(join(tmpdir(), 'ck-cache-unreadable-'));

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/cache/*': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><body><main><h1>Cached</h1><p>serial ${++serial}</p></main></body></html>`);
      },
    },
  });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function freshUrl(): { url: string; path: string } {
  const path = `/cache/page-${++nextPage}`;
  return { url: `${server.url}${path}`, path };
}

const fetchesOf = (path: string) => server.requests.filter((r) => r.path === path).length;

function doc(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`unexpected error: ${response.code} ${response.error}`);
  return response.data;
}

const serialOf = (d: Document) => Number(/serial (\d+)/.exec(d.markdown ?? '')?.[1]);

describe('an unreadable page cache entry', () => {
  it('an entry it cannot read (damaged, or from a newer crawlkit) is no copy: fetched again and replaced', async () => {
    const dir = join(root, 'unreadable');
    const rewrite = (value: string) => {
      const db = new DatabaseSync(join(dir, 'crawlkit.db'));
      try {
        db.prepare('UPDATE pages SET value = ?').run(value);
      } finally {
        db.close();
      }
    };
    const pages = [freshUrl(), freshUrl()];
    const one = new Crawlkit({ storeDir: dir, engine: 'http' });
    const stored = await Promise.all(pages.map(async ({ url }) => doc(await one.scrape({ url }))));
    await one.close();
    rewrite('{"v":9,"url":"written by a newer crawlkit"}');

    const two = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const locked = (await two.scrape({ url: pages[0]!.url, lockdown: true })) as ErrorResponse;
      expect(locked).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
      expect(locked.error).toMatch(/cannot be read/);
      const old = (await two.scrape({ url: pages[0]!.url, minAge: 1 })) as ErrorResponse;
      expect(old).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
      // A scrape fetches the page again, as for no copy, and its entry replaces the unreadable one.
      const again = doc(await two.scrape({ url: pages[0]!.url }));
      expect(again.metadata.cacheState).toBe('miss');
      expect(serialOf(again)).toBeGreaterThan(serialOf(stored[0]!));
      expect(fetchesOf(pages[0]!.path)).toBe(2);
      const hit = doc(await two.scrape({ url: pages[0]!.url, lockdown: true }));
      expect(serialOf(hit)).toBe(serialOf(again));
      // A crawl of the page with the default maxAge gets it too.
      rewrite('damaged');
      const crawl = await two.crawl({ url: pages[1]!.url, limit: 1 });
      if (!crawl.success) throw new Error(crawl.error);
      const done = await two.waitForJob(crawl.id);
      expect(done).toMatchObject({ success: true, status: 'completed' });
      expect(done.success && done.data.map((d) => serialOf(d))).toEqual([expect.any(Number)]);
      expect(fetchesOf(pages[1]!.path)).toBe(2);
    } finally {
      await two.close();
    }
  });
});
