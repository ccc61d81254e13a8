/**
 * Three teams on one `crawlkit serve`, each with its own API key, driven by the official JS SDK
 * (`@mendable/firecrawl-js`): a real server over a real engine (SQLite store) and a site on 127.0.0.1 that records
 * the order of the requests it gets.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { startServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok, until } from './helpers-batch.ts';
import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEYS = { a: 'fc-team-a-0123456789', b: 'fc-team-b-0123456789', c: 'fc-team-c-0123456789' };

let stack: ServeStack;
let site: Server;
let siteUrl = '';
/** Paths in the order the site was asked for them. */
const requested: string[] = [];
const team = (key: string) => new Firecrawl({ apiKey: key, apiUrl: stack.server.url });

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    // A crawl's root links to its pages; every other page is a leaf. Batch pages take a moment, as real pages do.
    const links = path.endsWith('/crawl/')
      ? Array.from({ length: 6 }, (_, i) => `<a href="${path}${i}">page ${i}</a>`).join(' ')
      : '';
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<html><head><title>${path}</title></head><body><main><p>Page ${path}. ${links}</p></main></body></html>`,
        );
      },
      path.startsWith('/a/') ? 100 : 0,
    );
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // One scrape slot: the order the site sees is the order the engine served its line in.
  stack = await startServeStack({ crawlkit: { concurrency: 1 }, server: { apiKeys: Object.values(KEYS) } });
});

afterAll(async () => {
  await stack?.close();
  site?.closeAllConnections();
  site?.close();
});

describe('several teams on one serve', () => {
  it("serve each team's jobs in turn: B's small crawl runs while A's eight batches of 100 pages wait their turns", async () => {
    const a = team(KEYS.a);
    const b = team(KEYS.b);
    const batches = [];
    for (let j = 0; j < 8; j++) {
      const urls = Array.from({ length: 100 }, (_, i) => `${siteUrl}/a/${j}/${i}`);
      batches.push(await a.startBatchScrape(urls, { options: { formats: ['markdown'] } }));
    }
    const crawl = await b.crawl(`${siteUrl}/b/crawl/`, { limit: 10, pollInterval: 0.05 });
    expect(crawl.status).toBe('completed');
    expect(crawl.data).toHaveLength(7);
    // B's crawl finished while A's batches still run.
    for (const batch of batches) expect((await a.getBatchScrapeStatus(batch.id)).status).toBe('scraping');

    const pages = requested.filter((path) => /^\/b\/crawl\/\d*$/.test(path));
    const during = requested.slice(requested.indexOf(pages[0]!), requested.lastIndexOf(pages.at(-1)!) + 1);
    const ofA = during.filter((path) => path.startsWith('/a/')).length;
    // Team A's pages and B's take turns: one or two of A's per page of B, while B's crawl settles a page and queues
    // the next (before: one per batch of A, eight).
    expect(pages).toHaveLength(7);
    expect(ofA).toBeLessThan(3 * pages.length);
    for (const batch of batches) await a.cancelBatchScrape(batch.id);
    // Nothing of A's runs on into the next tests' figures.
    await until(() => ok(stack.ck.getQueueStatus()).jobsInQueue === 0);
  });

  it("answer /v2/team/* for the key's own team: B's usage is unchanged by A's scrape, the operator sees both", async () => {
    const [a, b, c] = [team(KEYS.a), team(KEYS.b), team(KEYS.c)];
    const usage = async () => ({
      a: (await a.getCreditUsage()).remainingCredits,
      b: (await b.getCreditUsage()).remainingCredits,
      c: (await c.getCreditUsage()).remainingCredits,
      operator: stack.ck.getCreditUsage().data.creditsUsed,
    });
    const before = await usage();
    const doc = await a.scrape(`${siteUrl}/c/one`, { formats: ['markdown'] });
    expect(doc.metadata?.creditsUsed).toBe(1);
    const after = await usage();
    // Before: every key's remaining credits went down by A's scrape.
    expect(after).toEqual({ a: before.a - 1, b: before.b, c: before.c, operator: before.operator + 1 });
    // Team C has used nothing: its plan is whole.
    expect(after.c).toBe(1_000_000_000);

    // The historical forms and v1 say the same, per key.
    expect((await c.getCreditUsageHistorical()).periods).toMatchObject([{ creditsUsed: 0 }]);
    expect((await a.getCreditUsageHistorical(true)).periods).toMatchObject([{ creditsUsed: 1_000_000_000 - after.a }]);
    const v1 = await call(stack.server.url, 'GET', '/v1/team/credit-usage', {
      headers: { authorization: `Bearer ${KEYS.c}` },
    });
    expect(v1.body).toMatchObject({ data: { remaining_credits: 1_000_000_000 } });
    expect((await c.getTokenUsage()).remainingTokens).toBe(1_000_000_000);
  });

  it("answer queue-status and concurrency-check with the key's own scrapes, the operator's with all", async () => {
    const a = team(KEYS.a);
    const b = team(KEYS.b);
    // The one slot holds the page of A's first batch; its second batch's waits.
    const batches = [
      await a.startBatchScrape([stack.page('/held/q1')]),
      await a.startBatchScrape([stack.page('/held/q2')]),
    ];
    await until(async () => (await a.getQueueStatus()).jobsInQueue === 2);
    expect(await a.getQueueStatus()).toMatchObject({ activeJobsInQueue: 1, waitingJobsInQueue: 1, maxConcurrency: 1 });
    // Before: B saw A's two.
    expect(await b.getQueueStatus()).toMatchObject({ jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0 });
    expect(await b.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 1 });
    expect(await a.getConcurrency()).toEqual({ concurrency: 1, maxConcurrency: 1 });
    expect(stack.ck.getQueueStatus()).toMatchObject({ jobsInQueue: 2, activeJobsInQueue: 1 });
    stack.release('/held/q1');
    stack.release('/held/q2');
    for (const batch of batches) {
      await until(async () => (await a.getBatchScrapeStatus(batch.id)).status === 'completed');
    }
    expect((await a.getQueueStatus()).jobsInQueue).toBe(0);
  });

  it("keep a queueLimit per key: A's requests in progress fill A's, never B's", async () => {
    const server = await startServer({ crawlkit: stack.ck, port: 0, queueLimit: 1, apiKeys: Object.values(KEYS) });
    try {
      const [a, b] = [KEYS.a, KEYS.b].map((key) => new Firecrawl({ apiKey: key, apiUrl: server.url }));
      // A's scrape holds the engine's one slot, so A's one request stays in progress.
      const held = a!.scrape(stack.page('/held/limit'));
      await until(() => stack.site.requests.some((r) => r.path === '/held/limit'));
      const refused = await a!.map(`${siteUrl}/`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SdkError);
      expect((refused as SdkError).status).toBe(429);
      expect((refused as SdkError).message).toContain('for this API key (queueLimit 1 per key)');
      // Before: B was refused 429 too, by A's request.
      expect((await b!.map(`${siteUrl}/`)).links.length).toBeGreaterThan(0);
      stack.release('/held/limit');
      expect((await held).markdown).toContain('Held page');
      expect((await a!.map(`${siteUrl}/`)).links.length).toBeGreaterThan(0);
    } finally {
      stack.release('/held/limit');
      await server.close();
    }
  });

  it("keep a creditLimit per key: A's spent credits refuse A, not B", async () => {
    const server = await startServer({ crawlkit: stack.ck, port: 0, creditLimit: 5, apiKeys: Object.values(KEYS) });
    try {
      const [a, b] = [KEYS.a, KEYS.b].map((key) => new Firecrawl({ apiKey: key, apiUrl: server.url }));
      const total = async () => (await stack.ck.credits.committed()) as number;
      const before = await total();
      const batch = await a!.batchScrape(
        Array.from({ length: 4 }, (_, i) => `${siteUrl}/spend/${i}`),
        { options: { formats: ['markdown'] }, pollInterval: 0.05 },
      );
      expect(batch.completed).toBe(4);
      expect(await a!.getCreditUsage()).toMatchObject({ remainingCredits: 1, planCredits: 5 });
      const refused = await a!
        .startBatchScrape([`${siteUrl}/spend/4`, `${siteUrl}/spend/5`])
        .catch((error: unknown) => error);
      expect((refused as SdkError).status).toBe(402);
      // Before: B's crawl was cut to the one credit A left, and B's usage showed A's four.
      expect(await b!.getCreditUsage()).toMatchObject({ remainingCredits: 5, planCredits: 5 });
      const crawl = await b!.crawl(`${siteUrl}/credits/crawl/`, { limit: 3, pollInterval: 0.05 });
      expect(crawl.data).toHaveLength(3);
      expect(await b!.getCreditUsage()).toMatchObject({ remainingCredits: 2 });
      // The operator's total counts every key's.
      expect((await total()) - before).toBe(7);

      // A's schedule runs its crawl as A, under A's limit: the one credit left pays for one page (before: all 7).
      const headers = { authorization: `Bearer ${KEYS.a}` };
      const target = { type: 'crawl', url: `${siteUrl}/schedule/crawl/`, sitemap: 'skip', limit: 10 };
      const created = await call(server.url, 'POST', '/v2/schedule', {
        headers,
        body: { every: '1d', targets: [target] },
      });
      const id = (created.body.data as { id: string }).id;
      const run = await call(server.url, 'POST', `/v2/schedule/${id}/run`, { headers });
      const [jobId] = (run.body.data as { jobIds: string[] }).jobIds;
      const done = await stack.ck.waitForJob(jobId!, { documents: false });
      expect(done).toMatchObject({ status: 'completed', total: 1 });
      expect(await a!.getCreditUsage()).toMatchObject({ remainingCredits: 0 });
    } finally {
      await server.close();
    }
  });
});
