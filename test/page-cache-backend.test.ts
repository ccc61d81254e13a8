/**
 * A backend that implements only the page cache (`PageCache`, issue 37): scrapes are cached in it and read from it,
 * across engines; crawls and batches still run, in memory, and a warning says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore, type PageCache } from '@crawlkit/store';
import { Crawlkit, type CrawlkitEvents } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

let server: FixtureServer;
const dir = mkdtempSync(join(tmpdir(), 'ck-page-cache-'));

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A page cache and nothing else: the pages of a SQLite store, seen through the smallest interface. */
async function pagesOnly(): Promise<PageCache & { closed: () => boolean }> {
  const sqlite = await createSqliteStore({ dir });
  let closed = false;
  return {
    kind: 'shared-cache',
    ephemeral: false,
    pages: sqlite.pages,
    close: async () => {
      closed = true;
      await sqlite.close();
    },
    closed: () => closed,
  };
}

/** A page cache named `kind` over a SQLite store's pages, `replaced` standing in for the methods it names. */
function pagesWith(
  sqlite: { pages: PageCache['pages']; close(): Promise<void> },
  kind: string,
  replaced: (name: string | symbol) => (() => unknown) | undefined,
): PageCache {
  return {
    kind,
    ephemeral: false,
    pages: new Proxy(sqlite.pages, {
      get: (pages, name) => {
        const replacement = replaced(name);
        if (replacement) return replacement;
        const value: unknown = Reflect.get(pages, name);
        return typeof value === 'function' ? (value as () => unknown).bind(pages) : value;
      },
    }),
    close: () => sqlite.close(),
  };
}

/** An engine on `store` over HTTP, and the warnings it gives but `STORE_PAGES_ONLY`, as `CODE: message`. */
function engineOn(store: PageCache): { engine: Crawlkit; warnings: string[] } {
  const engine = new Crawlkit({ store, engine: 'http' });
  const warnings: string[] = [];
  engine.on('warning', (w) => w.code !== 'STORE_PAGES_ONLY' && warnings.push(`${w.code}: ${w.message}`));
  return { engine, warnings };
}

describe('a backend that implements only the page cache', () => {
  it('holds the cache of every engine given it, and jobs run in memory with a warning', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const first = await pagesOnly();
    const warnings: CrawlkitEvents['warning'][0][] = [];
    const one = new Crawlkit({ store: first, engine: 'http' });
    one.on('warning', (w) => warnings.push(w));
    expect(await one.scrape({ url })).toMatchObject({ success: true, data: { metadata: { cacheState: 'miss' } } });
    expect((await first.pages.stats()).entries).toBe(1);
    expect(warnings.map((w) => w.code)).toEqual(['STORE_PAGES_ONLY']);

    const crawl = await one.crawl({ url: `${server.url}/articles/`, limit: 2 });
    if (!crawl.success) throw new Error(crawl.error);
    expect(await one.waitForJob(crawl.id)).toMatchObject({ success: true, status: 'completed' });
    await one.close();
    expect(first.closed()).toBe(true);

    // Another engine on the same cache backend is answered by it, with no request.
    const before = server.requests.length;
    const two = new Crawlkit({ store: await pagesOnly(), engine: 'http' });
    expect(await two.scrape({ url })).toMatchObject({ success: true, data: { metadata: { cacheState: 'hit' } } });
    expect(server.requests.length).toBe(before);
    await two.close();
  });

  it('a cache whose writes never settle holds neither a lookup of the page nor close() past 2 s, and says so', async () => {
    const url = `${server.url}/articles/raw-html.html`;
    const sqlite = await createSqliteStore({ dir: join(dir, 'hung') });
    // A network store that lost its connection: its writes never answer, its reads still do.
    const hung = pagesWith(sqlite, 'hung-cache', (name) =>
      name === 'put' ? () => new Promise<void>(() => {}) : undefined,
    );
    const { engine, warnings } = engineOn(hung);
    expect(await engine.scrape({ url })).toMatchObject({ success: true, data: { metadata: { cacheState: 'miss' } } });
    let started = Date.now();
    // The second scrape of the page waits for the first one's write, 2 s at most, then fetches the page again.
    expect(await engine.scrape({ url, timeout: 10_000 })).toMatchObject({ success: true });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(warnings).toEqual([expect.stringMatching(/^CACHE_WRITE_FAILED: .*raw-html.*not settled after 2000 ms/)]);
    started = Date.now();
    await engine.close();
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^CACHE_WRITE_FAILED: .*not settled after 2000 ms/);
  });

  it('a put that throws is a failed write, not a failed scrape; a get that fails names the page cache', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const sqlite = await createSqliteStore({ dir: join(dir, 'faults') });
    let fault: 'put' | 'get' = 'put';
    // A cache of the user's whose methods throw instead of rejecting (a client library's own checks, say).
    const faulty = pagesWith(sqlite, 'faulty-cache', (name) =>
      name === fault
        ? () => {
            throw new Error(`${fault}: connection refused`);
          }
        : undefined,
    );
    const { engine, warnings } = engineOn(faulty);
    expect(await engine.scrape({ url })).toMatchObject({ success: true, data: { metadata: { cacheState: 'miss' } } });
    await engine.scrape({ url: `${server.url}/articles/` }); // the first write's warning is told by then
    expect(warnings[0]).toMatch(
      /^CACHE_WRITE_FAILED: The page cache did not keep .*first-post.* put: connection refused/,
    );
    fault = 'get';
    const answer = await engine.scrape({ url });
    expect(answer).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
    expect(answer.success ? '' : answer.error).toMatch(
      /The page cache \(faulty-cache\) could not read http:.*first-post\.html: get: connection refused/,
    );
    await engine.close();
  });

  it("a cache whose close() never settles holds the engine's close() 2 s at most, and says so", async () => {
    const sqlite = await createSqliteStore({ dir: join(dir, 'hung-close') });
    const hung: PageCache = {
      kind: 'hung-close',
      ephemeral: false,
      pages: sqlite.pages,
      close: () => new Promise<void>(() => {}),
    };
    const { engine, warnings } = engineOn(hung);
    expect(await engine.scrape({ url: `${server.url}/articles/first-post.html` })).toMatchObject({ success: true });
    const started = Date.now();
    await engine.close();
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^STORE_CLOSE_FAILED: The store given to crawlkit \(hung-close\) had not closed after 2000 ms/,
      ),
    ]);
    await sqlite.close();
  });

  it('is closed by the close() of an engine given it, and another engine given the same object says so', async () => {
    const url = `${server.url}/articles/first-post.html`;
    const shared = await pagesOnly();
    const one = new Crawlkit({ store: shared, engine: 'http' });
    const two = new Crawlkit({ store: shared, engine: 'http' });
    expect(await one.scrape({ url })).toMatchObject({ success: true });
    await one.close();
    expect(shared.closed()).toBe(true);
    const answer = await two.scrape({ url });
    expect(answer).toMatchObject({ success: false, code: 'STORE_CLOSED' });
    expect(answer.success ? '' : answer.error).toMatch(/closed outside it.*close\(\) of another Crawlkit/);
    await two.close();
  });

  it('refuses an object that is neither a Store nor a PageCache, naming what it expects', () => {
    expect(() => new Crawlkit({ store: { kind: 'x' } as never })).toThrow(
      /`store`: Expected 'memory', a Store or a PageCache/,
    );
  });
});
