/**
 * The same job behaviour (status, pagination, cancel, webhooks, watch) on both backends: the embedded store with
 * jobs run in-process, and Redis with the jobs run by a separate worker engine (its own connections, as another
 * process would have) while the submitting engine only submits and reads.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type CrawlErrorsResponse, type Document, type WebhookPayload } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { treeSite } from './distributed/tree-site.ts';
import { jobBackends, ok, type JobBackend } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

const SITE_SIZE = 40;
const site = treeSite(SITE_SIZE);
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({ routes: site.routes });
});
afterAll(async () => {
  await server.close();
});

interface Receiver {
  url: string;
  events: WebhookPayload[];
  close(): Promise<void>;
}

async function webhookReceiver(): Promise<Receiver> {
  const events: WebhookPayload[] = [];
  const http: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push(JSON.parse(body) as WebhookPayload);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    events,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const [name, factory, available] of jobBackends(testRedisUrl)) {
  describe.skipIf(!available)(`jobs on ${name}`, () => {
    let setup: JobBackend;
    beforeAll(async () => {
      setup = await factory({ webhooks: { timeoutMs: 2_000, retryDelayMs: 50 } });
    });
    afterAll(async () => {
      await setup.close();
    });

    it('crawls every page once within limit, and pages the status with next', async () => {
      const ck = setup.client;
      const started = ok(await ck.crawl({ url: `${server.url}/tree/1`, crawlEntireDomain: true, limit: 25 }));
      const done = ok(await ck.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(done.total).toBe(25);
      expect(done.completed).toBe(25);
      const sources = done.data.map((d) => d.metadata.sourceURL);
      expect(new Set(sources).size).toBe(25);
      expect(sources).toContain(`${server.url}/tree/1`);

      const seen: string[] = [];
      let page = ok(await ck.getCrawlStatus(started.id, { limit: 10 }));
      expect(page.data).toHaveLength(10);
      seen.push(...page.data.map((d) => d.metadata.sourceURL));
      while (page.next) {
        page = ok(await ck.getCrawlStatus(page.next));
        seen.push(...page.data.map((d) => d.metadata.sourceURL));
      }
      expect(seen.sort()).toEqual([...sources].sort());
    });

    it('ends a crawl past its store budget failed, keeping the pages it stored', async () => {
      const maxStoreBytes = 8_000;
      const small = await factory({ jobs: { maxStoreBytes } });
      try {
        const ck = small.client;
        const started = ok(await ck.crawl({ url: `${server.url}/tree/1`, crawlEntireDomain: true, limit: 40 }));
        const done = ok(await ck.waitForJob(started.id));
        expect(done.status).toBe('failed');
        const bytes = done.data.reduce((sum, d) => sum + Buffer.byteLength(JSON.stringify(d)), 0);
        expect(bytes).toBeGreaterThan(maxStoreBytes);
        expect(done.data.length).toBeLessThan(SITE_SIZE);
        const errors = (await ck.getCrawlErrors(started.id)) as CrawlErrorsResponse;
        expect(errors.errors.filter((e) => e.code === 'JOB_STORE_BUDGET_EXCEEDED')).toHaveLength(1);
      } finally {
        await small.close();
      }
    });

    it('runs a batch and reports its status', async () => {
      const ck = setup.client;
      const urls = [3, 5, 7, 9, 11].map((n) => `${server.url}/tree/${n}`);
      const started = ok(await ck.batchScrape({ urls }));
      const done = ok(await ck.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(done.total).toBe(5);
      expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
      const status = ok(await ck.getBatchScrapeStatus(started.id));
      expect(status.status).toBe('completed');
    });

    it('cancels a crawl: no more pages after the cancel settles, status cancelled', async () => {
      const ck = setup.client;
      // A 0.3 s delay makes the crawl slow enough to cancel midway (maxAge 0: a page the cache answers sends no
      // request, so the delay does not space it).
      const started = ok(
        await ck.crawl({
          url: `${server.url}/tree/1`,
          crawlEntireDomain: true,
          limit: 30,
          delay: 0.3,
          scrapeOptions: { maxAge: 0 },
        }),
      );
      await until(async () => ok(await ck.getCrawlStatus(started.id)).completed >= 2);
      expect(await ck.cancelCrawl(started.id)).toMatchObject({ status: 'cancelled' });
      const cancelledAt = performance.timeOrigin + performance.now();
      const after = ok(await ck.waitForJob(started.id));
      expect(after.status).toBe('cancelled');
      await new Promise((r) => setTimeout(r, 3_000));
      const later = ok(await ck.getCrawlStatus(started.id));
      expect(later.status).toBe('cancelled');
      // Pages in hand may still land, and a Redis worker starts pages until it reads the job again (at most 1 s
      // later, README "Running workers"); no request leaves after that. 1 s more for a loaded machine's delays.
      const late = site.hits.filter((h) => h.path.startsWith('/tree/') && h.at > cancelledAt + 2_000);
      expect(late).toEqual([]);
      expect(later.data.length).toBeLessThan(30);
    });

    it("waits for a host's delay outside each page's timeout", async () => {
      const ck = setup.client;
      // Four pages 1 s apart: a worker holding several tasks waits up to 3 s in place for the host (a Redis worker
      // waits up to 5 s before it requeues), longer than each page's 2 s for its fetch and extraction.
      const started = ok(
        await ck.crawl({
          url: `${server.url}/tree/1`,
          crawlEntireDomain: true,
          limit: 4,
          delay: 1,
          scrapeOptions: { timeout: 2_000, maxAge: 0 },
        }),
      );
      const done = ok(await ck.waitForJob(started.id));
      expect(await ck.getCrawlErrors(started.id)).toMatchObject({ errors: [] });
      expect(done).toMatchObject({ status: 'completed', completed: 4 });
    });

    it('delivers webhooks: started, one page event per page, completed', async () => {
      const receiver = await webhookReceiver();
      try {
        const ck = setup.client;
        const started = ok(
          await ck.crawl({ url: `${server.url}/tree/1`, crawlEntireDomain: true, limit: 6, webhook: receiver.url }),
        );
        ok(await ck.waitForJob(started.id));
        await until(() => receiver.events.some((e) => e.type === 'crawl.completed'));
        const types = receiver.events.map((e) => e.type);
        expect(types[0]).toBe('crawl.started');
        expect(types.at(-1)).toBe('crawl.completed');
        expect(types.filter((t) => t === 'crawl.page')).toHaveLength(6);
        expect(types.filter((t) => t === 'crawl.completed')).toHaveLength(1);
        expect(new Set(receiver.events.map((e) => e.id))).toEqual(new Set([started.id]));
      } finally {
        await receiver.close();
      }
    });

    it('watch() yields every stored document, then ends', async () => {
      const ck = setup.client;
      const started = ok(await ck.crawl({ url: `${server.url}/tree/2`, crawlEntireDomain: true, limit: 8 }));
      const watched: Document[] = [];
      for await (const document of ck.watch(started.id)) watched.push(document);
      const done = ok(await ck.waitForJob(started.id));
      expect(done.status).toBe('completed');
      expect(watched.map((d) => d.metadata.sourceURL).sort()).toEqual(
        done.data.map((d) => d.metadata.sourceURL).sort(),
      );
      expect(watched).toHaveLength(8);
    });
  });
}

describe('startWorker', () => {
  it('rejects with BACKEND_REQUIRED without a distributed backend', async () => {
    const ck = new Crawlkit({ store: 'memory' });
    try {
      await expect(ck.startWorker()).rejects.toMatchObject({ code: 'BACKEND_REQUIRED' });
    } finally {
      await ck.close();
    }
  });
});
