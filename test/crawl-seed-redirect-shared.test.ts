/**
 * A seed that redirects into another directory (`/latest` → `/v2/`) widens the crawl's scope for every process of the
 * job, not only the one that fetched it: an engine that resumes the crawl, and a Redis worker that loaded the job
 * before another worker fetched the seed. A real `redis-server`, real engines on each backend.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { jobBackends, ok, type JobBackend } from './helpers/job-backends.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

/** Resolved by `release()`; `wait` resolves once it is. */
function gate(): { wait: Promise<void>; release(): void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

/** What each test holds of the site: set per run (`/r/<run>/...`). */
interface Run {
  /** Answers the page's request once it resolves. */
  hold(path: string, res: ServerResponse): Promise<unknown> | undefined;
  requested(path: string): void;
}
const runs = new Map<string, Run>();
let server: FixtureServer;

/** `/r/<run>/latest` redirects to `/r/<run>/v2/`, which links four guides; guide N links `dN`. */
beforeAll(async () => {
  server = await startRouteSite({
    async '/r/*'(_req, res, ctx) {
      const [, , run, ...rest] = ctx.url.pathname.split('/');
      const state = runs.get(run!);
      const path = `/${rest.join('/')}`;
      const base = `/r/${run}`;
      if (path === '/sitemap.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
            `<url><loc>${ctx.baseUrl}${base}/latest/a</loc></url></urlset>`,
        );
        return;
      }
      state?.requested(path);
      await state?.hold(path, res);
      if (res.destroyed) return;
      if (path === '/latest') return void res.writeHead(301, { location: `${base}/v2/` }).end();
      const guide = /^\/v2\/g(\d)$/.exec(path);
      if (path === '/v2/') {
        const links = [1, 2, 3, 4].map((n) => `<a href="${base}/v2/g${n}">Guide ${n}</a>`).join(' ');
        return sendPage(res, 'Version 2', links);
      }
      if (guide) return sendPage(res, `Guide ${guide[1]}`, `<a href="${base}/v2/d${guide[1]}">Deeper</a>`);
      if (/^\/v2\/d\d$/.test(path) || path === '/latest/a') return sendPage(res, `Page ${path}`, '<p>Read on.</p>');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** The pages under `/v2/` a crawl of `/latest` stores, sorted. */
const V2_PAGES = ['/v2/', ...[1, 2, 3, 4].map((n) => `/v2/d${n}`), ...[1, 2, 3, 4].map((n) => `/v2/g${n}`)];

function paths(data: { metadata: { url?: string; sourceURL: string } }[], run: string): string[] {
  return data.map((d) => new URL(d.metadata.url ?? d.metadata.sourceURL).pathname.slice(`/r/${run}`.length)).sort();
}

// The embedded store's engine aborts its pages in flight when it closes, and the next one resumes the crawl. (A Redis
// worker that closes finishes its pages first: the next test has two workers share the crawl instead.)
const embedded = jobBackends(undefined)[0]![1];
describe('a redirected seed on the embedded store', () => {
  let setup: JobBackend;
  beforeAll(async () => {
    setup = await embedded();
  });
  afterAll(async () => {
    await setup.close();
  });

  it('still widens the scope in the engine that resumes the crawl', { timeout: 60_000 }, async () => {
    const run = randomUUID();
    const guideHeld = gate();
    const held: ServerResponse[] = [];
    runs.set(run, {
      requested: () => undefined,
      // The first guide fetched is held: the engine is replaced with the crawl under way, past its seed.
      hold(path, res) {
        if (!path.startsWith('/v2/g') || held.length > 0) return undefined;
        held.push(res);
        guideHeld.release();
        return new Promise(() => undefined);
      },
    });
    const started = ok(await setup.client.crawl({ url: `${server.url}/r/${run}/latest`, sitemap: 'skip' }));
    await guideHeld.wait;
    await setup.restartRunner();
    for (const res of held) res.destroy();
    const status = ok(await setup.client.waitForJob(started.id));
    expect(paths(status.data, run)).toEqual(V2_PAGES);
  });
});

describe.skipIf(!testRedisUrl)('a redirected seed on two Redis workers', () => {
  it(
    'widens the scope of the worker that loaded the job before the seed was fetched',
    { timeout: 60_000 },
    async () => {
      const run = randomUUID();
      const prefix = `ck-seed-scope-${randomUUID()}`;
      const backend = () => redis({ url: testRedisUrl!, prefix, taskLockMs: 5_000 });
      const submitter = new Crawlkit({ backend: backend(), engine: 'http' });
      const workers = [0, 1].map(() => new Crawlkit({ backend: backend(), engine: 'http' }));
      // The seed answers once the other worker fetches the sitemap's page (it has loaded the job by then); the guides
      // answer once two are in flight, one on each worker (each runs one page at a time).
      const sitemapPage = gate();
      const twoGuides = gate();
      let guidesInFlight = 0;
      runs.set(run, {
        requested(path) {
          if (path === '/latest/a') sitemapPage.release();
          if (path.startsWith('/v2/g') && ++guidesInFlight === 2) twoGuides.release();
        },
        hold(path) {
          if (path === '/latest') return sitemapPage.wait;
          // Bounded: should one worker take every guide, the test fails on what it asserts, not on a hang.
          if (path.startsWith('/v2/g'))
            return Promise.race([twoGuides.wait, new Promise((r) => setTimeout(r, 15_000))]);
          return undefined;
        },
      });
      try {
        for (const worker of workers) await worker.startWorker({ concurrency: 1, sweepIntervalMs: 3_600_000 });
        const started = ok(await submitter.crawl({ url: `${server.url}/r/${run}/latest` }));
        const status = ok(await submitter.waitForJob(started.id));
        expect(guidesInFlight).toBeGreaterThanOrEqual(2);
        expect(paths(status.data, run)).toEqual(['/latest/a', ...V2_PAGES]);
      } finally {
        for (const worker of workers) await worker.close();
        await submitter.close();
      }
    },
  );
});
