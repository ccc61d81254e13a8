/**
 * A server whose SQLite store's write lock another process holds (a `crawlkit cache vacuum`, a second crawlkit's long
 * write) goes on answering: `node:sqlite` is synchronous, and each write of a running crawl waited SQLite's busy
 * timeout (5 s) on the event loop, so a status read answered after 35 s and `/ready` after 69 s (a balancer's 1 s
 * probe would have restarted a healthy server). `/ready` says the store cannot be written (503 `STORE_BUSY`) once
 * the lock has been held past the busy timeout, and ready again once it is let go; the crawl completes, nothing lost.
 * The holder is a real child process on the file; the site is a real HTTP server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { holdWriteLock } from '../packages/store/src/__fixtures__/write-lock-holder.ts';
import { call, type Answer } from './helpers/raw-http.ts';

const PAGES = 30;
/** The store's busy timeout (crawlkit's default): past it a write fails STORE_BUSY and /ready says so. */
const BUSY_TIMEOUT_MS = 5_000;
/** Well under the busy timeout SQLite held the loop for; loose, as CI runs two suites at once on two cores. */
const PROMPT_MS = 1_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let dir: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ck-busy-serve-'));
  // / (page 0) and /p/N link /p/2N+1 and /p/2N+2; each page takes 150 ms, so the crawl is still running while the lock is held.
  site = createServer((request, response) => {
    const n = request.url === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(request.url ?? '')?.[1] ?? -1);
    if (n < 0 || n >= PAGES) return void response.writeHead(404).end();
    const links = [2 * n + 1, 2 * n + 2].filter((m) => m < PAGES).map((m) => `<a href="/p/${m}">page ${m}</a>`);
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<html><head><title>Page ${n}</title></head><body><p>Page ${n} text.</p>${links.join(' ')}</body>`);
    }, 150);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** `call`, with how long it took. */
async function timed(url: string, method: string, path: string): Promise<Answer & { ms: number }> {
  const started = performance.now();
  const answer = await call(url, method, path);
  return { ...answer, ms: performance.now() - started };
}

describe('serve while another process holds the store’s write lock', () => {
  it(
    'answers promptly, says 503 STORE_BUSY past the busy timeout and ready after, and the crawl completes',
    {
      timeout: 90_000,
    },
    async () => {
      const crawlkit = new Crawlkit({ storeDir: dir, engine: 'http' });
      const server = await startServer({ port: 0, crawlkit, logger: quiet });
      const loop = monitorEventLoopDelay({ resolution: 10 });
      try {
        const started = await call(server.url, 'POST', '/v2/crawl', {
          body: { url: `${siteUrl}/`, limit: PAGES, scrapeOptions: { maxAge: 0, formats: ['markdown'] } },
        });
        expect(started.status).toBe(200);
        const id = started.body.id as string;
        const status = () => timed(server.url, 'GET', `/v2/crawl/${id}`);
        while (((await status()).body.completed as number) < 2) await new Promise((r) => setTimeout(r, 50));

        const holder = await holdWriteLock(join(dir, 'crawlkit.db'));
        const lockedAt = performance.now();
        loop.enable();
        const slowest = { health: 0, status: 0, ready: 0 };
        let busySeen: Answer | undefined;
        // Polled as a balancer would, until the lock has been held for the busy timeout and more.
        while (performance.now() - lockedAt < BUSY_TIMEOUT_MS + 2_500) {
          const [health, read, ready] = await Promise.all([
            timed(server.url, 'GET', '/health'),
            status(),
            timed(server.url, 'GET', '/ready'),
          ]);
          expect(health.status).toBe(200);
          expect(read.status).toBe(200);
          slowest.health = Math.max(slowest.health, health.ms);
          slowest.status = Math.max(slowest.status, read.ms);
          slowest.ready = Math.max(slowest.ready, ready.ms);
          if (ready.status === 503) busySeen ??= ready;
          // Ready while the lock has been held for less than the busy timeout: a short lock is not a failure.
          if (performance.now() - lockedAt < BUSY_TIMEOUT_MS - 500) expect(ready.status).toBe(200);
          await new Promise((r) => setTimeout(r, 250));
        }
        loop.disable();
        expect(slowest.health).toBeLessThan(PROMPT_MS);
        expect(slowest.status).toBeLessThan(PROMPT_MS);
        expect(slowest.ready).toBeLessThan(PROMPT_MS);
        expect(loop.max / 1e6).toBeLessThan(PROMPT_MS);
        expect(busySeen).toMatchObject({
          status: 503,
          body: { success: false, status: 'unavailable', code: 'STORE_BUSY' },
        });
        expect(busySeen!.body.error).toMatch(/^Not ready: The store's writes have waited \d+ s for another process's/);
        expect(busySeen!.body.error).not.toContain(dir);

        await holder.release();
        const releasedAt = performance.now();
        let ready = await call(server.url, 'GET', '/ready');
        while (ready.status !== 200 && performance.now() - releasedAt < 5_000) {
          await new Promise((r) => setTimeout(r, 100));
          ready = await call(server.url, 'GET', '/ready');
        }
        expect(ready).toMatchObject({ status: 200, body: { success: true, status: 'ready' } });

        let done = await status();
        while (done.body.status === 'scraping' && performance.now() - releasedAt < 60_000) {
          await new Promise((r) => setTimeout(r, 200));
          done = await status();
        }
        expect(done.body).toMatchObject({ status: 'completed', total: PAGES, completed: PAGES });
        const errors = await call(server.url, 'GET', `/v2/crawl/${id}/errors`);
        expect(errors.body).toMatchObject({ errors: [] });
      } finally {
        loop.disable();
        await server.close();
        await crawlkit.close();
      }
    },
  );
});
