import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Fetcher } from '@crawlkit/fetcher';
import { createMemoryStore, createSqliteStore, type Store } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { appSiteRoutes, staticSiteRoutes, STATIC_PATHS } from '../../../../fixtures/apps/crawl-sites.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { EngineLearning } from './engine-learning.js';

const OPTIONS = { checkShare: 0.1, minPages: 2, maxHosts: 100 };

async function job(store: Store): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await store.jobs.create(
    { id, kind: 'batch', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
    [],
  );
  return id;
}

describe('EngineLearning', () => {
  it('sends a host to the browser once two of its pages needed it, and not before', async () => {
    const store = createMemoryStore();
    const learning = new EngineLearning(store, await job(store), OPTIONS);
    const url = 'https://app.test:8443/p/1';
    expect((await learning.page(url)).advice).toEqual({});
    await (await learning.page(url)).learn('browser');
    expect((await learning.page(url)).advice).toEqual({});
    await (await learning.page(url)).learn('browser');
    expect((await learning.page('https://app.test:8443/p/2')).advice.hostNeeds).toBe('browser');
    // Another port is another host; another job knows nothing.
    expect((await learning.page('https://app.test/p/2')).advice).toEqual({});
    expect((await new EngineLearning(store, await job(store), OPTIONS).page(url)).advice).toEqual({});
    // Pages whose HTML held their content outvote them again.
    for (let i = 0; i < 3; i++) await (await learning.page(url)).learn('http');
    expect((await learning.page(url)).advice).toEqual({});
  });

  it('checks a share of the learned pages both ways, the same URLs every time', async () => {
    const store = createMemoryStore();
    const id = await job(store);
    const learning = new EngineLearning(store, id, { ...OPTIONS, checkShare: 0.25 });
    for (let i = 0; i < 2; i++) await (await learning.page('https://app.test/')).learn('browser');
    const urls = Array.from({ length: 400 }, (_, i) => `https://app.test/p/${i}`);
    const checked = async (l: EngineLearning) =>
      (await Promise.all(urls.map((u) => l.page(u)))).filter((p) => p.advice.checkEngines).length;
    const share = await checked(learning);
    expect(share / urls.length).toBeGreaterThan(0.15);
    expect(share / urls.length).toBeLessThan(0.35);
    expect(await checked(new EngineLearning(store, id, { ...OPTIONS, checkShare: 0.25 }))).toBe(share);
    expect(await checked(new EngineLearning(store, id, { ...OPTIONS, checkShare: 0 }))).toBe(0);
  });

  it('stops writing a settled host on every page', async () => {
    const store = createMemoryStore();
    const id = await job(store);
    const learning = new EngineLearning(store, id, OPTIONS);
    for (let i = 0; i < 30; i++) await (await learning.page('https://news.test/a')).learn('http');
    expect(await store.engines.get(id, 'news.test')).toEqual({ http: 10, browser: 0 });
    await (await learning.page('https://news.test/b')).learn('browser');
    expect(await store.engines.get(id, 'news.test')).toEqual({ http: 10, browser: 1 });
  });

  it('survives a resume: what a job learned is in its store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-learning-'));
    try {
      const first = await createSqliteStore({ dir });
      const id = await job(first);
      const learning = new EngineLearning(first, id, OPTIONS);
      for (let i = 0; i < 2; i++) await (await learning.page('https://app.test/x')).learn('browser');
      await first.close();
      const again = await createSqliteStore({ dir });
      expect((await new EngineLearning(again, id, OPTIONS).page('https://app.test/y')).advice.hostNeeds).toBe(
        'browser',
      );
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('learning with the real fetcher', () => {
  let app: FixtureServer;
  let news: FixtureServer;
  let fetcher: Fetcher;

  beforeAll(async () => {
    app = await startFixtureServer({ routes: appSiteRoutes() });
    news = await startFixtureServer({ routes: staticSiteRoutes() });
    fetcher = new Fetcher({ browser: { args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] } });
  });

  afterAll(async () => {
    await fetcher?.close();
    await app?.close();
    await news?.close();
  });

  /** One page through learning and the fetcher, as the task execution runs it. */
  async function visit(learning: EngineLearning, url: string) {
    const page = await learning.page(url);
    const result = await fetcher.fetch({ url, timeoutMs: 30_000, ...page.advice });
    if (result.engineEvidence) await page.learn(result.engineEvidence);
    return result;
  }

  it('a wrong guess corrects itself: a static host taken for an app is checked back to HTTP', async () => {
    const store = createMemoryStore();
    const id = await job(store);
    const host = new URL(news.url).host;
    for (let i = 0; i < 3; i++) await store.engines.record(id, host, 'browser');
    // Every learned page checked both ways, so the correction shows within a few pages.
    const learning = new EngineLearning(store, id, { ...OPTIONS, checkShare: 1 });
    const reasons: string[] = [];
    for (const path of STATIC_PATHS.slice(0, 8)) reasons.push((await visit(learning, news.url + path)).engineReason);
    expect(reasons.slice(0, 3)).toEqual(Array(3).fill('js-required:host'));
    expect(reasons.slice(-3)).toEqual(Array(3).fill('http:static'));
    expect((await learning.page(news.url + '/')).advice).toEqual({});
  }, 120_000);

  it('an app host learned from its first pages sends the next ones straight to the browser', async () => {
    const store = createMemoryStore();
    const learning = new EngineLearning(store, await job(store), { ...OPTIONS, checkShare: 0 });
    const first = await visit(learning, `${app.url}/`);
    expect(first).toMatchObject({
      engine: 'browser',
      engineReason: 'js-required:placeholder',
      engineEvidence: 'browser',
    });
    await visit(learning, `${app.url}/c/chairs`);
    const before = app.requests.length;
    const third = await visit(learning, `${app.url}/p/item-18`);
    expect(third).toMatchObject({ engine: 'browser', engineReason: 'js-required:host' });
    expect(third.engineEvidence).toBeUndefined();
    expect(third.text).toContain('Rendered details of /p/item-18');
    // No HTTP attempt: the only request for the page is the browser's.
    const pageRequests = app.requests.slice(before).filter((r) => r.path === '/p/item-18');
    expect(pageRequests).toHaveLength(1);
    expect(pageRequests[0]!.headers['user-agent']).not.toContain('crawlkit');
  }, 120_000);
});
