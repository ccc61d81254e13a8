/**
 * `worker.close()` while the worker prepares a crawl (its robots.txt, its sitemaps): the preparation is aborted, the
 * close does not wait for a slow robots.txt or sitemap, and nothing of the crawl is lost: the page the worker held goes
 * back on the queue and the next worker prepares the crawl. A real `redis-server`, real engines, a site on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/job-backends.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

let server: FixtureServer;
/** The path whose first request is never answered (later ones are), and its requests. */
let held: { path: string; requested: () => void } | undefined;
const heldResponses: ServerResponse[] = [];

/** Holds the first request of `path` from now on; resolves when it arrives. */
function holdFirst(path: string): Promise<void> {
  return new Promise((resolve) => (held = { path, requested: resolve }));
}

/** Whether this request is the one held. */
function holds(path: string, res: ServerResponse): boolean {
  if (held?.path !== path) return false;
  heldResponses.push(res);
  held.requested();
  held = undefined;
  return true;
}

beforeAll(async () => {
  server = await startRouteSite({
    '/'(_req, res) {
      sendPage(res, 'Home', '<a href="/linked">Linked</a>');
    },
    '/linked'(_req, res) {
      sendPage(res, 'Linked', '<p>Found through the seed.</p>');
    },
    '/listed'(_req, res) {
      sendPage(res, 'Listed', '<p>Found through the sitemap only.</p>');
    },
    '/robots.txt'(_req, res) {
      if (holds('/robots.txt', res)) return;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    },
    '/sitemap.xml'(_req, res, ctx) {
      if (holds('/sitemap.xml', res)) return;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          `<url><loc>${ctx.baseUrl}/listed</loc></url></urlset>`,
      );
    },
  });
});
afterAll(async () => {
  for (const res of heldResponses) res.destroy();
  await server?.close();
});

describe.skipIf(!testRedisUrl)('closing a Redis worker while it prepares a crawl', () => {
  for (const path of ['/sitemap.xml', '/robots.txt']) {
    it(
      `aborts the preparation held on ${path}: the close does not wait, the next worker prepares the crawl`,
      {
        timeout: 90_000,
      },
      async () => {
        const prefix = `ck-close-prepare-${randomUUID()}`;
        const backend = () => redis({ url: testRedisUrl!, prefix, taskLockMs: 5_000 });
        const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
        const first = new Crawlkit({ backend: backend(), engine: 'http' });
        let second: Crawlkit | undefined;
        try {
          const worker = await first.startWorker({ sweepIntervalMs: 3_600_000 });
          const requested = holdFirst(path);
          const started = ok(await submitter.crawl({ url: `${server.url}/`, limit: 10 }));
          await requested;
          const closed = await Promise.race([
            worker.close().then(() => 'closed'),
            // A bound for the failure only: before, the close waited for the read to time out (15 s for a sitemap).
            new Promise((resolve) => setTimeout(resolve, 60_000, 'still closing after 60 s')),
          ]);
          expect(closed).toBe('closed');
          // What the close cut short is no note of the crawl's: its status says nothing of an unread robots.txt or
          // sitemap (it says no worker runs, which is so).
          expect(ok(await submitter.getCrawlStatus(started.id)).warning).not.toMatch(/robots|sitemap/i);
          second = new Crawlkit({ backend: backend(), engine: 'http' });
          await second.startWorker({ sweepIntervalMs: 3_600_000 });
          const status = ok(await submitter.waitForJob(started.id));
          expect(status).toMatchObject({ status: 'completed' });
          expect(status).not.toHaveProperty('warning');
          expect(status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual([
            '/',
            '/linked',
            '/listed',
          ]);
        } finally {
          await second?.close();
          await first.close();
          await submitter.close();
        }
      },
    );
  }
});
