/**
 * changeTracking end to end through the real `Crawlkit`: fixture pages whose content the test edits between scrapes
 * (`fixtures/routes/change.ts`) and the history in the engine's store. The json mode with a model is tested beside
 * the code (`packages/crawlkit/src/scrape/change-tracking.test.ts`), where the AI SDK provider is a dependency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document, type ErrorResponse, type JobStatusResponse } from 'crawlkit';
import { createMemoryStore, type Store } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { data } from './helpers/scrape.ts';

let server: FixtureServer;
let ck: Crawlkit;
let counter = 0;
const engines: Crawlkit[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
  engines.push(ck);
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await server.close();
});

/** A fresh page path, so that tests never share a history. */
const fresh = (name: string) => `/change/${name}-${++counter}-${Date.now()}`;

async function setPage(path: string, page: { title?: string; body: string; status?: number; volatile?: boolean }) {
  const response = await fetch(`${server.url}${path}`, { method: 'PUT', body: JSON.stringify(page) });
  expect(response.status).toBe(204);
}

type TrackingFormat = {
  type: 'changeTracking';
  modes?: ('git-diff' | 'json')[];
  tag?: string | null;
  schema?: Record<string, unknown>;
  prompt?: string;
};

const track = async (url: string, format: Omit<TrackingFormat, 'type'> = {}, engine = ck) =>
  data(await engine.scrape({ url, formats: ['markdown', { type: 'changeTracking', ...format }] }));

describe('changeTracking on scrape', () => {
  it('reports new, then same, then changed with a git diff, then same again', async () => {
    const path = fresh('shop');
    const url = `${server.url}${path}`;
    await setPage(path, { title: 'Shop', body: '<p>Hand planes</p><p>Price: 40 EUR</p><p>Shipping worldwide</p>' });

    const first = await track(url, { modes: ['git-diff'] });
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(first.markdown).toContain('Price: 40 EUR');

    const second = await track(url, { modes: ['git-diff'] });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(second.changeTracking?.diff).toBeUndefined();
    const firstAt = Date.parse(second.changeTracking!.previousScrapeAt!);
    expect(Number.isFinite(firstAt)).toBe(true);

    await setPage(path, {
      title: 'Shop',
      body: '<p>Hand planes</p><p>Price: 45 EUR</p><p>Shipping worldwide</p><p>New: chisels</p>',
    });
    const third = await track(url, { modes: ['git-diff'] });
    expect(third.changeTracking?.changeStatus).toBe('changed');
    expect(Date.parse(third.changeTracking!.previousScrapeAt!)).toBeGreaterThanOrEqual(firstAt);
    const diff = third.changeTracking!.diff!;
    expect(diff.text).toMatch(/^diff --git a\/page\.md b\/page\.md\n--- a\/page\.md\n\+\+\+ b\/page\.md\n@@ /);
    expect(diff.text).toContain('\n-Price: 40 EUR\n');
    expect(diff.text).toContain('\n+Price: 45 EUR\n');
    expect(diff.text).toContain('\n+New: chisels\n');
    const changes = diff.json.files[0]!.chunks.flatMap((c) => c.changes);
    expect(changes).toContainEqual(expect.objectContaining({ type: 'del', content: '-Price: 40 EUR' }));
    expect(changes).toContainEqual(expect.objectContaining({ type: 'add', content: '+Price: 45 EUR' }));
    const chunk = diff.json.files[0]!.chunks[0]!;
    expect(chunk.changes[0]).toMatchObject({
      type: 'normal',
      normal: true,
      ln1: Number(/-(\d+)/.exec(chunk.content)![1]),
      ln2: Number(/\+(\d+)/.exec(chunk.content)![1]),
    });

    const fourth = await track(url, { modes: ['git-diff'] });
    expect(fourth.changeTracking?.changeStatus).toBe('same');
  });

  it('leaves the diff out without the git-diff mode', async () => {
    const path = fresh('nodiff');
    const url = `${server.url}${path}`;
    await setPage(path, { body: '<p>Version one of the text.</p>' });
    await track(url);
    await setPage(path, { body: '<p>Version two of the text.</p>' });
    const doc = await track(url);
    expect(doc.changeTracking?.changeStatus).toBe('changed');
    expect(doc.changeTracking).not.toHaveProperty('diff');
    expect(doc.changeTracking).not.toHaveProperty('json');
  });

  it('ignores what is not content: a fresh timestamp and a cache-busting image URL on every load', async () => {
    const path = fresh('volatile');
    const url = `${server.url}${path}`;
    await setPage(path, { title: 'Status', body: '<p>All systems operational.</p>', volatile: true });
    const first = await track(url);
    const second = await track(url, { modes: ['git-diff'] });
    // The bytes differ on every load...
    expect(first.markdown).not.toBe(second.markdown);
    expect(second.markdown).toMatch(/Last updated: \d{4}-/);
    // ...the text does not.
    expect(second.changeTracking?.changeStatus).toBe('same');

    await setPage(path, { title: 'Status', body: '<p>Partial outage of the API.</p>', volatile: true });
    expect((await track(url)).changeTracking?.changeStatus).toBe('changed');
  });

  it('counts reordered paragraphs as a change', async () => {
    const path = fresh('order');
    const url = `${server.url}${path}`;
    await setPage(path, { body: '<ol><li>Gold: Ann</li><li>Silver: Bob</li></ol>' });
    await track(url);
    await setPage(path, { body: '<ol><li>Gold: Bob</li><li>Silver: Ann</li></ol>' });
    expect((await track(url)).changeTracking?.changeStatus).toBe('changed');
  });

  it('keeps one history per tag', async () => {
    const path = fresh('tags');
    const url = `${server.url}${path}`;
    await setPage(path, { body: '<p>Tagged content.</p>' });
    expect((await track(url, { tag: 'daily' })).changeTracking?.changeStatus).toBe('new');
    expect((await track(url, { tag: 'weekly' })).changeTracking?.changeStatus).toBe('new');
    expect((await track(url, { tag: null })).changeTracking?.changeStatus).toBe('new');
    expect((await track(url, { tag: 'daily' })).changeTracking?.changeStatus).toBe('same');
    expect((await track(url)).changeTracking?.changeStatus).toBe('same');
  });

  it('keys the history by the normalised URL (fragment, tracking parameters, trailing slash)', async () => {
    const path = fresh('norm');
    await setPage(path, { body: '<p>Same page, other spelling.</p>' });
    await track(`${server.url}${path}`);
    const other = `${server.url}${path}/?utm_source=newsletter#top`;
    const doc = await track(other);
    expect(doc.metadata.sourceURL).toBe(other);
    expect(doc.changeTracking?.changeStatus).toBe('same');
  });

  it('reports removed for a page that answers 404, with and without a history', async () => {
    const path = fresh('gone');
    const url = `${server.url}${path}`;
    const never = await track(url);
    expect(never.metadata.statusCode).toBe(404);
    expect(never.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'removed', visibility: 'visible' });

    await setPage(path, { body: '<p>Now it exists.</p>' });
    expect((await track(url)).changeTracking?.changeStatus).toBe('changed');
    await setPage(path, { body: '<p>Now it exists.</p>', status: 404 });
    const removed = await track(url);
    expect(removed.changeTracking?.changeStatus).toBe('removed');
    expect(removed.changeTracking?.previousScrapeAt).not.toBeNull();
  });

  it('neither compares nor keeps an error answer (500, 403): the page back is compared with its last version', async () => {
    const path = fresh('outage');
    const url = `${server.url}${path}`;
    await setPage(path, { title: 'Stock', body: '<p>Chisels in stock.</p>' });
    const started = Date.now();
    const before = await track(url, { modes: ['git-diff'] });
    const ended = Date.now();
    expect(before.changeTracking?.changeStatus).toBe('new');
    for (const status of [500, 403]) {
      await setPage(path, { title: 'Error', body: '<p>Something went wrong.</p>', status });
      const failed = await track(url, { modes: ['git-diff'] });
      expect(failed.metadata.statusCode).toBe(status);
      expect(failed.changeTracking).toBeUndefined();
      expect(failed.warning).toContain(`answered ${status}`);
    }
    await setPage(path, { title: 'Stock', body: '<p>Chisels in stock.</p>' });
    const back = await track(url, { modes: ['git-diff'] });
    expect(back.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    // The scrape it was compared with is the one before the outage.
    const previous = Date.parse(back.changeTracking!.previousScrapeAt!);
    expect(previous).toBeGreaterThanOrEqual(started);
    expect(previous).toBeLessThanOrEqual(ended);
  });

  it('refuses with zero data retention and keeps nothing', async () => {
    const path = fresh('zdr');
    const url = `${server.url}${path}`;
    await setPage(path, { body: '<p>Private.</p>' });
    const doc = data(
      await ck.scrape({ url, formats: ['markdown', { type: 'changeTracking' }], zeroDataRetention: true }),
    );
    expect(doc.changeTracking).toBeUndefined();
    expect(doc.warning).toContain('Change tracking is not supported with zero data retention.');
    // Nothing was kept: the next tracked scrape is the first.
    expect((await track(url)).changeTracking?.changeStatus).toBe('new');
  });

  it('requires markdown in formats', async () => {
    const response = await ck.scrape({ url: `${server.url}/change/x`, formats: [{ type: 'changeTracking' }] });
    expect(response).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((response as ErrorResponse).error).toContain(
      'The changeTracking format requires the markdown format to be specified as well',
    );
  });

  it('survives a restart with an on-disk store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ck-change-'));
    try {
      const path = fresh('disk');
      const url = `${server.url}${path}`;
      await setPage(path, { body: '<p>Kept on disk.</p>' });
      const one = new Crawlkit({ storeDir: dir, engine: 'http' });
      expect((await track(url, {}, one)).changeTracking?.changeStatus).toBe('new');
      await one.close();
      const two = new Crawlkit({ storeDir: dir, engine: 'http' });
      engines.push(two);
      expect((await track(url, {}, two)).changeTracking?.changeStatus).toBe('same');
      await two.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('changeTracking json mode', () => {
  it('reads new, with no previous scrape, when the last version kept cannot be read', async () => {
    const path = fresh('unreadable');
    const url = `${server.url}${path}`;
    await setPage(path, { title: 'Shop', body: '<p>Hand planes</p>' });
    // A store whose kept version is not one this crawlkit can read (damaged, or written by a newer one).
    const memory = createMemoryStore();
    const store: Store = {
      ...memory,
      history: {
        ...memory.history,
        latest: (u, tag) => Promise.resolve({ url: u, tag, scrapedAt: 1, value: '{"v":99}' }),
      },
    };
    const engine = new Crawlkit({ store, engine: 'http' });
    engines.push(engine);
    const document = await track(url, {}, engine);
    // Before: changeStatus 'new' with previousScrapeAt 1970-01-01T00:00:00.001Z, the version it could not read.
    expect(document.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(document.warning).toContain('The last version kept for change tracking could not be read');
  });

  it('refuses without a model, naming what is missing, before any fetch', async () => {
    const before = server.requests.length;
    const response = await ck.scrape({
      url: `${server.url}/change/anything`,
      formats: ['markdown', { type: 'changeTracking', modes: ['json'] }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((response as ErrorResponse).error).toMatch(/changeTracking json mode needs a language model/);
    expect(server.requests.length).toBe(before);
  });
});

describe('changeTracking in jobs', () => {
  it('tracks every page of a crawl: only the edited page changed on the next crawl, a 404 removed', async () => {
    const root = fresh('site');
    const pages = ['a', 'b'];
    await setPage(root, {
      title: 'Home',
      body: `<p>Welcome to the tracked site.</p>${pages.map((p) => `<a href="${root}/${p}">Page ${p}</a>`).join(' ')}`,
    });
    for (const p of pages) await setPage(`${root}/${p}`, { title: `Page ${p}`, body: `<p>Text of page ${p}.</p>` });

    const crawl = async () => {
      const started = await ck.crawl({
        url: `${server.url}${root}`,
        limit: 3,
        scrapeOptions: { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] },
      });
      if (!started.success) throw new Error(started.error);
      const done = (await ck.waitForJob(started.id)) as JobStatusResponse;
      expect(done.status).toBe('completed');
      const byPath = new Map<string, Document>();
      for (const doc of done.data) byPath.set(new URL(doc.metadata.sourceURL).pathname, doc);
      return byPath;
    };

    const first = await crawl();
    expect(first.size).toBe(3);
    for (const doc of first.values()) expect(doc.changeTracking?.changeStatus).toBe('new');

    await setPage(`${root}/b`, { title: 'Page b', body: '<p>Text of page b, revised.</p>' });
    const second = await crawl();
    expect(second.get(root)?.changeTracking?.changeStatus).toBe('same');
    expect(second.get(`${root}/a`)?.changeTracking?.changeStatus).toBe('same');
    const b = second.get(`${root}/b`)!;
    expect(b.changeTracking?.changeStatus).toBe('changed');
    expect(b.changeTracking?.diff?.text).toContain('+Text of page b, revised.');

    // A page that still is linked but now answers 404 is reported as removed.
    await setPage(`${root}/a`, { title: 'Page a', body: '<p>Text of page a.</p>', status: 404 });
    const third = await crawl();
    expect(third.get(`${root}/a`)?.changeTracking?.changeStatus).toBe('removed');
    expect(third.get(`${root}/b`)?.changeTracking?.changeStatus).toBe('same');
  });

  it('tracks the pages of a batch scrape', async () => {
    const one = fresh('batch');
    const two = fresh('batch');
    await setPage(one, { body: '<p>First batch page.</p>' });
    await setPage(two, { body: '<p>Second batch page.</p>' });
    const urls = [`${server.url}${one}`, `${server.url}${two}`];
    await track(urls[0]!);
    const started = await ck.batchScrape({ urls, formats: ['markdown', { type: 'changeTracking' }] });
    if (!started.success) throw new Error(started.error);
    const done = (await ck.waitForJob(started.id)) as JobStatusResponse;
    const statuses = Object.fromEntries(done.data.map((d) => [d.metadata.sourceURL, d.changeTracking?.changeStatus]));
    expect(statuses).toEqual({ [urls[0]!]: 'same', [urls[1]!]: 'new' });
  });
});
