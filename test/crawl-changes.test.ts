/**
 * A crawl's change feed (issue 41): a local site edited between two crawls of one lineage (a page edited, one added,
 * one deleted, one unchanged, one unchanged but with a new ad). The second crawl asks with validators (the site
 * counts its 304s), fetches full bodies only where the bytes changed, and reports exactly the right change per URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type CrawlChangesResponse, type Document, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServer } from '@crawlkit/server';
import { createMemoryStore, type Store } from '@crawlkit/store';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { startReceiver, until } from './helpers-batch.ts';

let site: ChangingSite;
let ck: Crawlkit;
const day = Date.UTC(2026, 0, 1);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  site = await startChangingSite({
    '/stable.html': { title: 'Stable', text: 'This page never changes.', modifiedAt: day },
    '/edited.html': { title: 'Edited', text: 'First version of the text.', modifiedAt: day },
    '/deleted.html': { title: 'Deleted', text: 'Soon gone.', modifiedAt: day },
    '/ad.html': { title: 'Ad', text: 'Same words, new ad each time.', modifiedAt: day, rotatingAd: true },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'auto' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function crawl(body: Record<string, unknown>): Promise<{ id: string; documents: Document[] }> {
  const started = await ck.crawl({ url: `${site.url}/`, ...body });
  if (!('id' in started)) throw new Error(`crawl refused: ${JSON.stringify(started)}`);
  const done = await ck.waitForJob(started.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  return { id: started.id, documents: done.data };
}

const byPath = (documents: Document[]) =>
  Object.fromEntries(documents.map((d) => [new URL(d.metadata.sourceURL).pathname, d.metadata.crawlChange]));

async function feed(id: string, limit = 100): Promise<CrawlChangesResponse> {
  const answer = await ck.getCrawlChanges(id, { limit });
  if (!answer.success) throw new Error(`changes refused: ${answer.error}`);
  return answer;
}

describe('the change feed of a crawl', () => {
  it('reports new, changed, same and removed against the lineage, with conditional requests', async () => {
    // The v2 default maxAge (two days): the last run's copies are confirmed by the site, never served by their age.
    const options = { tag: 'docs-mirror' };
    const first = await crawl(options);
    expect(byPath(first.documents)).toEqual({
      '/': 'new',
      '/stable.html': 'new',
      '/edited.html': 'new',
      '/deleted.html': 'new',
      '/ad.html': 'new',
    });
    expect((await feed(first.id)).previousCrawlId).toBeNull();

    site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
    site.pages.delete('/deleted.html');
    site.set('/added.html', { title: 'Added', text: 'A new page.' });
    site.resetCounts();
    const second = await crawl(options);

    expect(byPath(second.documents)).toEqual({
      '/': 'changed',
      '/stable.html': 'same',
      '/edited.html': 'changed',
      '/added.html': 'new',
      '/ad.html': 'same',
    });
    // Conditional requests: the unchanged page answered 304; full bodies only where the bytes changed.
    expect(Object.fromEntries(site.notModified)).toEqual({ '/stable.html': 1 });
    expect(Object.fromEntries(site.full)).toEqual({ '/': 1, '/edited.html': 1, '/added.html': 1, '/ad.html': 1 });
    const stable = second.documents.find((d) => d.metadata.sourceURL.endsWith('/stable.html'))!;
    expect(stable.metadata).toMatchObject({ cacheState: 'hit', revalidated: true, creditsUsed: 1 });
    expect(stable.markdown).toContain('This page never changes.');

    const changes = await feed(second.id);
    expect(changes).toMatchObject({ success: true, status: 'completed', previousCrawlId: first.id });
    expect(changes.data).toHaveLength(6);
    expect(changes.data.at(-1)).toEqual({ url: `${site.url}/deleted.html`, change: 'removed' });
    expect(changes.next).toBeUndefined();

    // Paged as a status is: `next` addresses the rest, removed pages after the stored ones.
    const paged: CrawlChangesResponse['data'] = [];
    let page = await feed(second.id, 4);
    paged.push(...page.data);
    while (page.next) {
      page = (await ck.getCrawlChanges(page.next)) as CrawlChangesResponse;
      paged.push(...page.data);
    }
    expect(paged).toEqual(changes.data);
  });

  it("compares with nothing when the lineage's last run cannot be read, and the run becomes the baseline", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-lineage-'));
    const run = async () => {
      const engine = new Crawlkit({ storeDir: dir, engine: 'http', logger: quiet });
      try {
        const started = await engine.crawl({ url: `${site.url}/`, tag: 'unreadable' });
        if (!('id' in started)) throw new Error(JSON.stringify(started));
        const done = await engine.waitForJob(started.id);
        const changes = await engine.getCrawlChanges(started.id);
        return { id: started.id, done, previous: changes.success ? changes.previousCrawlId : changes.error };
      } finally {
        await engine.close();
      }
    };
    try {
      const first = await run();
      expect(first.done).toMatchObject({ success: true, status: 'completed' });
      // Damaged, or written by a newer crawlkit.
      const db = new DatabaseSync(join(dir, 'crawlkit.db'));
      db.prepare(`UPDATE history SET value = '{"v":9}' WHERE tag = 'crawlkit:crawl-lineage'`).run();
      db.close();
      // Before, the crawl stayed 'scraping' for good, its first page never finished.
      const second = await run();
      expect(second.done).toMatchObject({ success: true, status: 'completed' });
      expect(second.previous).toBeNull();
      const changes = second.done.success ? second.done.data.map((d) => d.metadata.crawlChange) : [];
      expect(new Set(changes)).toEqual(new Set(['new']));
      const third = await run();
      expect(third.previous).toBe(second.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('ends the crawl failed, not scraping for good, when a store of its own fails a page past its fetch', async () => {
    // A store of the user's own whose history answers an error that is no store fault (no STORE_IO, STORE_BUSY...).
    const store = createMemoryStore();
    const broken: Store = {
      ...store,
      history: {
        ...store.history,
        latest: () => Promise.reject(new Error('history backend: no such table')),
        append: (entry) => store.history.append(entry),
      },
    };
    const logged: string[] = [];
    const logger = { ...quiet, error: (...args: unknown[]) => logged.push(args.map((a) => String(a)).join(' ')) };
    const engine = new Crawlkit({ store: broken, engine: 'http', logger });
    try {
      const started = await engine.crawl({ url: `${site.url}/`, tag: 'broken-history', limit: 2 });
      if (!('id' in started)) throw new Error(JSON.stringify(started));
      const done = await engine.waitForJob(started.id);
      expect(done).toMatchObject({ success: true, status: 'failed', completedAt: expect.any(String) });
      expect(logged.join('\n')).toContain('history backend: no such table');
      // Before: no word of why in the status a poller reads.
      expect((done as { warning?: string }).warning).toBe('The job failed: history backend: no such table.');
    } finally {
      await engine.close();
    }
  }, 20_000);

  it('lines up crawls with the same seed and options when no tag names the lineage', async () => {
    const options = { changes: true, includePaths: ['^/$', 'stable'] };
    const first = await crawl(options);
    const second = await crawl(options);
    expect(byPath(first.documents)).toEqual({ '/': 'new', '/stable.html': 'new' });
    expect(byPath(second.documents)).toEqual({ '/': 'same', '/stable.html': 'same' });
    // Other options are another lineage.
    const other = await crawl({ ...options, limit: 5 });
    expect(byPath(other.documents)).toEqual({ '/': 'new', '/stable.html': 'new' });
  });

  it('asks the site to confirm every cached copy, even one fetched after the last run, and takes none by its age', async () => {
    const options = { tag: 'newer-copy', includePaths: ['^/$', 'stable'] };
    await crawl(options);
    // Fetched again after that run, by a plain scrape: a copy newer than the run, still older than a change could be.
    const scraped = await ck.scrape({ url: `${site.url}/stable.html`, maxAge: 0 });
    expect(scraped.success).toBe(true);
    site.resetCounts();
    const second = await crawl(options);
    expect(byPath(second.documents)).toEqual({ '/': 'same', '/stable.html': 'same' });
    const pages = site.requests.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml');
    expect(pages.map((r) => r.path).sort()).toEqual(['/', '/stable.html']);
    expect(pages.every((r) => r.ifNoneMatch !== undefined)).toBe(true);
    const stable = second.documents.find((d) => d.metadata.sourceURL.endsWith('/stable.html'))!;
    expect(stable.metadata).toMatchObject({ cacheState: 'hit', revalidated: true });
    // minAge asks for the cache itself: a copy is taken as it is, with no request.
    site.resetCounts();
    const cached = await crawl({ ...options, scrapeOptions: { minAge: 1 } });
    expect(cached.documents.map((d) => d.metadata.cacheState)).toEqual(['hit', 'hit']);
    expect(site.requests.filter((r) => r.path.endsWith('.html') || r.path === '/')).toEqual([]);
  });

  it('sends the change in crawl.page webhooks and serves GET /v2/crawl/:id/changes over HTTP', async () => {
    const receiver = await startReceiver();
    const server = await startServer({ port: 0, crawlkit: ck, logger: quiet });
    try {
      const options = { tag: 'over-http', includePaths: ['^/$', 'stable'], webhook: receiver.url };
      await crawl(options);
      const { id } = await crawl(options);
      await until(() => receiver.events.some((e) => e.payload.type === 'crawl.completed' && e.payload.id === id));
      const pages = receiver.events.filter((e) => e.payload.type === 'crawl.page' && e.payload.id === id);
      expect(pages.map((e) => (e.payload.data[0] as Document).metadata.crawlChange)).toEqual(['same', 'same']);

      const answer = await fetch(`${server.url}/v2/crawl/${id}/changes?limit=1`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as CrawlChangesResponse;
      expect(body).toMatchObject({ success: true, status: 'completed', data: [{ change: 'same' }] });
      expect(body.next).toBe(`${server.url}/v2/crawl/${id}/changes?skip=1&limit=1`);
      const rest = (await (await fetch(body.next!)).json()) as CrawlChangesResponse;
      expect(rest.data).toHaveLength(1);
      expect(rest.next).toBeUndefined();
      const missing = await fetch(`${server.url}/v2/crawl/${crypto.randomUUID()}/changes`);
      expect(missing.status).toBe(404);
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  it('skips pages whose sitemap lastmod is older than modifiedSince, listed or linked', async () => {
    site.set('/fresh.html', { title: 'Fresh', text: 'Just written.' });
    const since = '2026-06-01';
    const { documents } = await crawl({ modifiedSince: since });
    const expected = [...site.pages].filter(([, page]) => page.modifiedAt >= Date.parse(since)).map(([p]) => p);
    expect(expected).toContain('/fresh.html');
    expect(expected).not.toContain('/stable.html');
    // The seed (the index, which links every page) is crawled whatever its date.
    expect(documents.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/', ...expected].sort());
    const bad = (await ck.crawl({ url: `${site.url}/`, modifiedSince: 'last tuesday' })) as ErrorResponse;
    expect(bad).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(bad.error).toMatch(/ISO 8601/);
    const withFeed = (await ck.crawl({ url: `${site.url}/`, modifiedSince: since, changes: true })) as ErrorResponse;
    expect(withFeed.error).toMatch(/drop modifiedSince/);
  });

  it('keeps documents as they were without a feed, and refuses what cannot have one', async () => {
    const plain = await crawl({ limit: 2 });
    expect(plain.documents.every((d) => d.metadata.crawlChange === undefined)).toBe(true);
    const refused = (await ck.getCrawlChanges(plain.id)) as ErrorResponse;
    expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(refused.error).toMatch(/changes: true/);
    const zdr = (await ck.crawl({ url: `${site.url}/`, changes: true, zeroDataRetention: true })) as ErrorResponse;
    expect(zdr).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(zdr.error).toMatch(/zeroDataRetention/);
  });
});
