/**
 * Every way a job's task ends, on both ways tasks run (in-process on the embedded store, and Redis workers): 429/503
 * retried after Retry-After or a back-off, given up after three retries, stored, failed, discarded, rejected, and a
 * page in flight when its engine stops. One task execution serves both, so each path must hold on both.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer, type RouteContext } from '../fixtures/server.ts';
import { jobBackends, ok, type JobBackend } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

/** Timers and clocks round to the millisecond: a wait of N ms may measure a hair under N between two processes. */
const CLOCK_SLACK_MS = 20;

interface Hit {
  path: string;
  status: number;
  at: number;
}

let server: FixtureServer;
const hits: Hit[] = [];
/** Times each path (with its query) was requested. */
const seen = new Map<string, number>();
/** Resolves when a `/hold/*` request arrives; the response then waits `HOLD_MS`. */
let held: Promise<void> = Promise.resolve();
let onHeld: () => void = () => undefined;
const HOLD_MS = 800;
/** How late `/h/a` answers: its link is found well after the 429 beside it was answered. */
const LATE_MS = 400;

function page(title: string, links: string[] = []): string {
  const items = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return (
    `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main>` +
    `<h1>${title}</h1><p>${title} is a page of the task execution tests. It carries enough prose to count as the ` +
    `main content of the page, and a list of links to follow.</p><ul>${items}</ul></main></body></html>`
  );
}

function answer(res: ServerResponse, ctx: RouteContext, status: number, body: string, headers = {}): void {
  hits.push({ path: ctx.url.pathname + ctx.url.search, status, at: Date.now() });
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
}

/** The nth request (from 1) of this path and query. */
function nth(ctx: RouteContext): number {
  const key = ctx.url.pathname + ctx.url.search;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return n;
}

const routes = {
  // 429 with Retry-After: 1 on the first request.
  '/retry/after': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    if (nth(ctx) === 1) answer(res, ctx, 429, page('Busy'), { 'retry-after': '1' });
    else answer(res, ctx, 200, page('After'));
  },
  // 503 without Retry-After on the first request.
  '/retry/backoff': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    if (nth(ctx) === 1) answer(res, ctx, 503, page('Unavailable'));
    else answer(res, ctx, 200, page('Backoff'));
  },
  // Always 429, asking for no wait: given up after the retries.
  '/retry/always': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    nth(ctx);
    answer(res, ctx, 429, page('Always busy'), { 'retry-after': '0' });
  },
  '/ok/*': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => answer(res, ctx, 200, page('Fine')),
  // A crawl: the seed (kept out by includePaths) links to a page, and to one that redirects out of the crawl's scope.
  '/c/*': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    const run = ctx.url.search;
    const path = ctx.url.pathname;
    if (path === '/c/') answer(res, ctx, 200, page('Seed', [`/c/a${run}`, `/c/away${run}`]));
    else if (path === '/c/away') {
      hits.push({ path: path + run, status: 302, at: Date.now() });
      res.writeHead(302, { location: `/elsewhere/page${run}` }).end();
    } else answer(res, ctx, 200, page(`Crawl ${path}`));
  },
  // A crawl whose host asks for a rest: `/h/slow` answers its first request 429 with Retry-After: 1 while `/h/a`,
  // fetched beside it, answers late and links to `/h/b`, which must then wait for the rest to end.
  '/h/*': async (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    const run = ctx.url.search;
    const path = ctx.url.pathname;
    if (path === '/h/') answer(res, ctx, 200, page('Rest seed', [`/h/slow${run}`, `/h/a${run}`]));
    else if (path === '/h/slow' && nth(ctx) === 1) answer(res, ctx, 429, page('Busy'), { 'retry-after': '1' });
    else if (path === '/h/a') {
      await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      answer(res, ctx, 200, page('Late', [`/h/b${run}`]));
    } else answer(res, ctx, 200, page(`Rest ${path}`));
  },
  '/elsewhere/*': (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) =>
    answer(res, ctx, 200, page('Elsewhere')),
  // Answers after HOLD_MS, so that its engine can be stopped while the page is in flight.
  '/hold/*': async (_req: IncomingMessage, res: ServerResponse, ctx: RouteContext) => {
    onHeld();
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    answer(res, ctx, 200, page('Held'));
  },
};

beforeAll(async () => {
  server = await startFixtureServer({ routes });
});
afterAll(async () => {
  await server.close();
});

const hitsOf = (path: string) => hits.filter((h) => h.path === path);
const bySource = (docs: Document[], url: string) => docs.filter((d) => d.metadata.sourceURL === url);

for (const [name, factory, available] of jobBackends(testRedisUrl)) {
  describe.skipIf(!available)(`task execution on ${name}`, () => {
    let setup: JobBackend;
    beforeAll(async () => {
      setup = await factory();
    });
    afterAll(async () => {
      await setup.close();
    });

    describe('a batch through every retry path', () => {
      const run = `?run=${randomUUID()}`;
      const url = (path: string) => `${server.url}${path}${run}`;
      const refused = `http://127.0.0.1:1/refused${run}`;
      let data: Document[];
      let done: { total: number; completed: number; creditsUsed: number };
      let errors: { url: string; code?: string; error: string }[];

      beforeAll(async () => {
        const ck = setup.client;
        const urls = ['/retry/after', '/retry/backoff', '/retry/always', '/ok/1'].map(url);
        const started = ok(await ck.batchScrape({ urls: [...urls, refused] }));
        const status = ok(await ck.waitForJob(started.id));
        expect(status.status).toBe('completed');
        data = status.data;
        done = status;
        const response = await ck.getBatchScrapeErrors(started.id);
        if ('success' in response) throw new Error(response.error);
        errors = response.errors;
      });

      it('retries a 429 after its Retry-After and stores the page once it answers', () => {
        const [refusal, success] = hitsOf(`/retry/after${run}`);
        expect([refusal?.status, success?.status]).toEqual([429, 200]);
        expect(success!.at - refusal!.at).toBeGreaterThanOrEqual(1000 - CLOCK_SLACK_MS);
        expect(bySource(data, url('/retry/after')).map((d) => d.metadata.statusCode)).toEqual([200]);
      });

      it('retries a 503 without Retry-After after a back-off of at least a second', () => {
        const [refusal, success] = hitsOf(`/retry/backoff${run}`);
        expect([refusal?.status, success?.status]).toEqual([503, 200]);
        expect(success!.at - refusal!.at).toBeGreaterThanOrEqual(1000 - CLOCK_SLACK_MS);
        expect(bySource(data, url('/retry/backoff')).map((d) => d.metadata.statusCode)).toEqual([200]);
      });

      it('gives up after three retries and keeps the last answer', () => {
        expect(hitsOf(`/retry/always${run}`).map((h) => h.status)).toEqual([429, 429, 429, 429]);
        const [kept] = bySource(data, url('/retry/always'));
        expect(kept?.metadata.statusCode).toBe(429);
        // Before: no word of the retries, as if the site had been asked once.
        expect(kept?.warning).toMatch(
          /^The page answered 429 Too Many Requests to each of 4 attempts over \d+\.\d s; the document is the server's error page, its last answer\.$/,
        );
        expect(bySource(data, url('/retry/after'))[0]?.warning).toBeUndefined();
      });

      it('stores a page once, with its credits counted in the job', () => {
        expect(hitsOf(`/ok/1${run}`)).toHaveLength(1);
        expect(bySource(data, url('/ok/1')).map((d) => d.metadata.statusCode)).toEqual([200]);
        expect(done.creditsUsed).toBe(data.reduce((sum, d) => sum + (d.metadata.creditsUsed ?? 0), 0));
      });

      it('records a failed page as an error, stores nothing for it, and still completes the job', () => {
        // As upstream counts: the documents; the failed page is in the errors, in neither count.
        expect(done).toMatchObject({ total: 4, completed: 4 });
        expect(data).toHaveLength(4);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ url: refused });
        expect(errors[0]!.error).toBeTruthy();
      });
    });

    describe('a crawl that discards its seed and rejects a redirect', () => {
      const run = `?run=${randomUUID()}`;
      const url = (path: string) => `${server.url}${path}${run}`;
      let data: Document[];
      let errors: { url: string; code?: string; error: string }[];

      beforeAll(async () => {
        const ck = setup.client;
        const started = ok(await ck.crawl({ url: url('/c/'), includePaths: ['^/c/.+'], sitemap: 'skip' }));
        const status = ok(await ck.waitForJob(started.id));
        expect(status.status).toBe('completed');
        data = status.data;
        const response = await ck.getCrawlErrors(started.id);
        if ('success' in response) throw new Error(response.error);
        errors = response.errors;
      });

      it('fetches the seed for its links but stores nothing of it (discard)', () => {
        expect(hitsOf(`/c/${run}`)).toHaveLength(1);
        expect(bySource(data, url('/c/'))).toEqual([]);
        expect(errors.map((e) => e.url)).not.toContain(url('/c/'));
        expect(data.map((d) => d.metadata.sourceURL)).toEqual([url('/c/a')]);
      });

      it('records a redirect out of the crawl as a CRAWL_DENIAL error instead of storing it (reject)', () => {
        expect(hitsOf(`/elsewhere/page${run}`)).toHaveLength(1);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ url: url('/c/away'), code: 'CRAWL_DENIAL' });
        expect(errors[0]!.error).toContain('Redirected target URL is not allowed by crawlOptions');
      });
    });

    it('rests the whole host after a 429 on a crawl page: a page found meanwhile waits out the Retry-After', async () => {
      const run = `?run=${randomUUID()}`;
      const started = ok(await setup.client.crawl({ url: `${server.url}/h/${run}`, sitemap: 'skip' }));
      const status = ok(await setup.client.waitForJob(started.id));
      expect(status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual([
        '/h/',
        '/h/a',
        '/h/b',
        '/h/slow',
      ]);
      const [refusal, success] = hitsOf(`/h/slow${run}`);
      expect([refusal?.status, success?.status]).toEqual([429, 200]);
      const [found] = hitsOf(`/h/b${run}`);
      expect(found!.at - refusal!.at).toBeGreaterThanOrEqual(1000 - CLOCK_SLACK_MS);
    });

    it('keeps a page in flight when its engine stops: stored once after the job carries on', async () => {
      const run = `?run=${randomUUID()}`;
      held = new Promise((resolve) => (onHeld = resolve));
      const urls = [`${server.url}/hold/1${run}`, `${server.url}/ok/2${run}`];
      const started = ok(await setup.client.batchScrape({ urls }));
      await held;
      await setup.restartRunner();
      const status = ok(await setup.client.waitForJob(started.id));
      expect(status).toMatchObject({ status: 'completed', total: 2, completed: 2 });
      expect(status.data.map((d) => d.metadata.sourceURL).sort()).toEqual([...urls].sort());
      expect(status.data.map((d) => d.metadata.statusCode)).toEqual([200, 200]);
      const errors = await setup.client.getBatchScrapeErrors(started.id);
      expect(errors).toMatchObject({ errors: [] });
    });
  });
}
