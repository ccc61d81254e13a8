/**
 * Conditional refetches (issue 41): a cached page past `maxAge` is asked for with its validators, and a
 * `304 Not Modified` serves the cached copy and its extraction. The site counts its 304s and full bodies itself.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document } from 'crawlkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { data } from './helpers/scrape.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: ChangingSite;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startChangingSite({
    '/guide.html': { title: 'Guide', text: 'Sharpen the iron.\nHone the back.', modifiedAt: Date.UTC(2026, 0, 1) },
    '/news.html': { title: 'News', text: 'Nothing new.', modifiedAt: Date.UTC(2026, 0, 1), rotatingAd: true },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'auto' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

beforeEach(() => site.resetCounts());

/** Waits past a `maxAge` of 1 ms: the next scrape finds the copy stale. */
const stale = () => new Promise((resolve) => setTimeout(resolve, 5));

async function scrape(path: string, maxAge?: number): Promise<Document> {
  return data(await ck.scrape({ url: `${site.url}${path}`, ...(maxAge !== undefined ? { maxAge } : {}) }));
}

/** A crawl of the whole site with a change feed (its `tag`), every page past `maxAge`: its documents. */
async function crawlSite(engine: Crawlkit, tag: string): Promise<Document[]> {
  const started = await engine.crawl({ url: `${site.url}/`, tag, scrapeOptions: { maxAge: 1 } });
  if (!('id' in started)) throw new Error(JSON.stringify(started));
  const done = await engine.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(JSON.stringify(done));
  return done.data;
}

describe('conditional refetches', () => {
  it('sends the validators past maxAge and serves the cached copy on 304, billed as a hit', async () => {
    const first = await scrape('/guide.html');
    expect(first.metadata).toMatchObject({ cacheState: 'miss', creditsUsed: 1 });
    expect(first.metadata.revalidated).toBeUndefined();
    await stale();
    const second = await scrape('/guide.html', 1);
    expect(site.notModified.get('/guide.html')).toBe(1);
    expect(site.full.get('/guide.html')).toBe(1);
    const sent = site.requests.filter((r) => r.path === '/guide.html').at(-1)!;
    expect(sent.ifNoneMatch).toMatch(/^"[0-9a-f]{20}"$/);
    expect(sent.ifModifiedSince).toBe(new Date(Date.UTC(2026, 0, 1)).toUTCString());
    expect(second.metadata).toMatchObject({ cacheState: 'hit', revalidated: true, statusCode: 200, creditsUsed: 1 });
    expect(second.markdown).toBe(first.markdown);
    expect(Date.parse(second.metadata.cachedAt!)).toBeGreaterThanOrEqual(Date.now() - 5_000);
    // The confirmation renewed the copy: within maxAge now, it is a plain hit with no request at all.
    const third = await scrape('/guide.html', 60_000);
    expect(third.metadata).toMatchObject({ cacheState: 'hit' });
    expect(third.metadata.revalidated).toBeUndefined();
    expect(site.requests.filter((r) => r.path === '/guide.html')).toHaveLength(2);
  });

  it('fetches the full page again when it changed, and caches the new version', async () => {
    await scrape('/guide.html');
    site.set('/guide.html', { title: 'Guide', text: 'Sharpen the iron.\nHone the back.\nStrop it.' });
    await stale();
    const changed = await scrape('/guide.html', 1);
    expect(changed.metadata.cacheState).toBe('miss');
    expect(changed.metadata.revalidated).toBeUndefined();
    expect(changed.markdown).toContain('Strop it.');
    expect(site.notModified.get('/guide.html')).toBeUndefined();
    await stale();
    const again = await scrape('/guide.html', 1);
    expect(again.metadata).toMatchObject({ cacheState: 'hit', revalidated: true });
    expect(again.markdown).toContain('Strop it.');
    expect(site.notModified.get('/guide.html')).toBe(1);
  });

  it('gets a full body for a page whose bytes change on every request (a rotating ad)', async () => {
    await scrape('/news.html');
    await stale();
    const next = await scrape('/news.html', 1);
    expect(next.metadata.cacheState).toBe('miss');
    expect(site.full.get('/news.html')).toBe(2);
    expect(site.requests.at(-1)!.ifNoneMatch).toBeDefined();
  });

  it('keeps the extraction beside the copy: a new engine serves a 304 without extracting again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-revalidation-'));
    const url = `${site.url}/guide.html`;
    try {
      const first = new Crawlkit({ storeDir: dir, engine: 'http' });
      const fetched = data(await first.scrape({ url, maxAge: 60_000, formats: ['markdown', 'links'] }));
      await first.close();
      await stale();
      // The cached bytes are altered (same length): extracting them again would show it, the kept extraction not.
      const db = new DatabaseSync(join(dir, 'crawlkit.db'));
      const altered = db
        .prepare(
          `UPDATE pages SET body = CAST(replace(CAST(body AS TEXT), 'Sharpen the iron.', 'Altered the byte.') AS BLOB)
           WHERE key NOT LIKE '%|extraction=%' AND body IS NOT NULL`,
        )
        .run();
      const timesOf = (view: DatabaseSync) =>
        view
          .prepare(`SELECT cached_at FROM pages WHERE url LIKE '%/guide.html'`)
          .all()
          .map((row) => row['cached_at'] as number);
      const firstTimes = timesOf(db);
      db.close();
      expect(altered.changes).toBe(1);
      expect(firstTimes).toHaveLength(2);
      const second = new Crawlkit({ storeDir: dir, engine: 'http' });
      try {
        const confirmed = data(await second.scrape({ url, maxAge: 1, formats: ['markdown', 'links'] }));
        expect(confirmed.metadata).toMatchObject({ cacheState: 'hit', revalidated: true });
        expect(confirmed.markdown).toBe(fetched.markdown);
        expect(confirmed.links).toEqual(fetched.links);
        // The kept extraction was confirmed with its page: both carry the new time (neither is evicted first).
        const view = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
        const times = timesOf(view);
        view.close();
        expect(new Set(times).size).toBe(1);
        expect(times[0]).toBeGreaterThan(Math.max(...firstTimes));
        // The copy stored again keeps its text in the search index.
        const found = await second.search({ query: 'Hone the back' });
        if (!found.success) throw new Error(found.error);
        expect(Object.values(found.data).flatMap((r) => r.map((x) => x.url))).toContain(url);
        // Other formats are extracted again from the cached bytes: the kept extraction is per settings.
        const other = data(await second.scrape({ url, maxAge: 1, formats: ['markdown'] }));
        expect(other.markdown).toContain('Altered the byte.');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recrawls an unchanged site in a new engine with no extraction call, its sitemap read in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-revalidation-'));
    const crawl = (engine: Crawlkit) => crawlSite(engine, 'no-extraction');
    const calls: string[] = [];
    const listener = (message: unknown) => {
      const call = message as { kind: string; url?: string };
      calls.push(`${call.kind} ${call.url ?? ''}`);
    };
    try {
      const first = new Crawlkit({ storeDir: dir, engine: 'http' });
      const fetched = await crawl(first);
      await first.close();
      expect(fetched.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual([
        '/',
        '/guide.html',
        '/news.html',
      ]);
      await stale();
      site.resetCounts();
      const second = new Crawlkit({ storeDir: dir, engine: 'http' });
      subscribe('crawlkit:extraction:call-start', listener);
      try {
        const again = await crawl(second);
        const change = Object.fromEntries(
          again.map((d) => [new URL(d.metadata.sourceURL).pathname, d.metadata.crawlChange]),
        );
        // The page with a rotating ad comes whole (its bytes changed) and is extracted; the others answer 304.
        expect(change).toEqual({ '/': 'same', '/guide.html': 'same', '/news.html': 'same' });
        expect(Object.fromEntries(site.notModified)).toEqual({ '/': 1, '/guide.html': 1 });
        expect(site.requests.filter((r) => r.path === '/sitemap.xml')).toHaveLength(1);
        expect(calls).toEqual([`judgeAndExtract ${site.url}/news.html`]);
      } finally {
        unsubscribe('crawlkit:extraction:call-start', listener);
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compares a confirmed copy by the content hash kept with its extraction, without hashing it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-revalidation-'));
    const crawl = async (engine: Crawlkit) =>
      Object.fromEntries(
        (await crawlSite(engine, 'kept-hash')).map((d) => [new URL(d.metadata.sourceURL).pathname, d.metadata]),
      );
    try {
      const first = new Crawlkit({ storeDir: dir, engine: 'http' });
      const fetched = await crawl(first);
      await first.close();
      const db = new DatabaseSync(join(dir, 'crawlkit.db'));
      const kept = () =>
        db
          .prepare(`SELECT url, value FROM pages WHERE key LIKE '%|extraction=%' ORDER BY url`)
          .all()
          .map((row) => [
            (row['url'] as string).replace(/^[^/]*\/\/[^/]*/, '') || '/',
            JSON.parse(row['value'] as string).contentHash,
          ]);
      // Each kept extraction holds the hash its crawl reported.
      expect(Object.fromEntries(kept())).toEqual({
        '/': fetched['/']!.contentHash,
        '/guide.html': fetched['/guide.html']!.contentHash,
        '/news.html': fetched['/news.html']!.contentHash,
      });
      // The guide's kept hash is changed on disk: a recrawl that hashed the confirmed copy again would not see it.
      db.prepare(
        `UPDATE pages SET value = json_set(value, '$.contentHash', 'kept-on-disk')
         WHERE key LIKE '%|extraction=%' AND url LIKE '%/guide.html'`,
      ).run();
      db.close();
      await stale();
      const second = new Crawlkit({ storeDir: dir, engine: 'http' });
      try {
        const again = await crawl(second);
        expect(Object.fromEntries(site.notModified)).toEqual({ '/': 1, '/guide.html': 1 });
        expect(again['/guide.html']).toMatchObject({ contentHash: 'kept-on-disk', crawlChange: 'changed' });
        expect(again['/']).toMatchObject({ contentHash: fetched['/']!.contentHash, crawlChange: 'same' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for robots.txt and the sitemap again conditionally, and reads the kept copies on 304', async () => {
    site.frontierValidators = true;
    const dir = mkdtempSync(join(tmpdir(), 'ck-revalidation-'));
    const engine = new Crawlkit({ storeDir: dir, engine: 'http' });
    const frontier = (path: string) => site.requests.filter((r) => r.path === path);
    const mapped = async () => {
      const map = await engine.map({ url: `${site.url}/`, sitemap: 'only' });
      if (!map.success) throw new Error(map.error);
      return map.links.map((l) => new URL(l.url).pathname).sort();
    };
    try {
      expect(await mapped()).toEqual(['/guide.html', '/news.html']);
      expect(frontier('/sitemap.xml')[0]!.ifNoneMatch).toBeUndefined();
      // The sitemap's kept copy answers the next map once the site confirms it.
      expect(await mapped()).toEqual(['/guide.html', '/news.html']);
      expect(Object.fromEntries(site.notModified)).toEqual({ '/robots.txt': 1, '/sitemap.xml': 1 });
      expect(site.full.get('/sitemap.xml')).toBe(1);
      // A changed sitemap comes whole.
      site.set('/tools.html', { title: 'Tools', text: 'A plane.' });
      expect(await mapped()).toEqual(['/guide.html', '/news.html', '/tools.html']);
      expect(site.full.get('/sitemap.xml')).toBe(2);
      site.pages.delete('/tools.html');
      await crawlSite(engine, 'frontier');
      site.resetCounts();
      await stale();
      await crawlSite(engine, 'frontier');
      expect(site.notModified.get('/robots.txt')).toBe(1);
      expect(site.notModified.get('/sitemap.xml')).toBe(1);
      expect(site.full.get('/robots.txt')).toBeUndefined();
      expect(site.full.get('/sitemap.xml')).toBeUndefined();
      // A crawl under zeroDataRetention neither keeps nor sends them.
      site.resetCounts();
      const started = await engine.crawl({ url: `${site.url}/`, zeroDataRetention: true });
      if (!('id' in started)) throw new Error(JSON.stringify(started));
      expect(await engine.waitForJob(started.id)).toMatchObject({ status: 'completed' });
      expect([...frontier('/robots.txt'), ...frontier('/sitemap.xml')].map((r) => r.ifNoneMatch)).toEqual([
        undefined,
        undefined,
      ]);
    } finally {
      site.frontierValidators = false;
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes a 304 as the copy's confirmation only from the URL the copy was fetched at", async () => {
    // A static site deployed at once: every file has the same Last-Modified, and answers If-Modified-Since with 304.
    const deployed = new Date(Date.UTC(2026, 0, 1)).toUTCString();
    const moves = { '/old': '', '/entry': '/landing' } as Record<string, string>;
    const texts: Record<string, string> = { '/old': 'The old page.', '/new': 'The new page.', '/landing': 'Landing.' };
    const routed = await startRouteSite(
      Object.fromEntries(
        ['/old', '/new', '/entry', '/landing'].map((path) => [
          path,
          (req, res) => {
            if (moves[path]) {
              res.writeHead(301, { location: moves[path] });
              res.end();
            } else if (req.headers['if-modified-since'] === deployed) {
              res.writeHead(304, { 'last-modified': deployed });
              res.end();
            } else {
              res.setHeader('last-modified', deployed);
              sendPage(res, path, `<p>${texts[path]}</p>`);
            }
          },
        ]),
      ),
    );
    const engine = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const get = async (path: string) => data(await engine.scrape({ url: `${routed.url}${path}`, maxAge: 1 }));
      expect((await get('/old')).markdown).toContain('The old page.');
      expect((await get('/entry')).metadata.url).toBe(`${routed.url}/landing`);
      moves['/old'] = '/new';
      await stale();
      // The 304 came from /new, to the validators of /old's copy: /new is fetched again, not /old's copy served.
      const moved = await get('/old');
      expect(moved.markdown).toContain('The new page.');
      expect(moved.metadata).toMatchObject({ url: `${routed.url}/new`, cacheState: 'miss' });
      // A redirect that stays: the copy is the landing page's, and the landing page's 304 confirms it.
      const before = routed.requests.filter((r) => r.path === '/landing').length;
      const kept = await get('/entry');
      expect(kept.metadata).toMatchObject({ url: `${routed.url}/landing`, cacheState: 'hit', revalidated: true });
      expect(routed.requests.filter((r) => r.path === '/landing')).toHaveLength(before + 1);
    } finally {
      await engine.close();
      await routed.close();
    }
  });

  it('sends no validators where the cache may not be read or written', async () => {
    await scrape('/guide.html');
    await stale();
    // maxAge 0 never reads the cache; storeInCache false never writes the confirmed copy.
    await scrape('/guide.html', 0);
    data(await ck.scrape({ url: `${site.url}/guide.html`, maxAge: 1, storeInCache: false }));
    expect(site.requests.filter((r) => r.ifNoneMatch !== undefined)).toHaveLength(0);
  });
});
