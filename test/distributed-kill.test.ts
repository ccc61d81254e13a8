/**
 * Distributed mode across real processes: three worker processes on one Redis take the tasks of crawls submitted by
 * this process. One worker is killed with SIGKILL midway; its tasks go to the others once their lock lapses, and
 * every page is still stored exactly once, within `limit`. A crawl with `delay` is spaced per host across workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { redis } from '@crawlkit/redis';
import { Crawlkit, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { treeSite } from './distributed/tree-site.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

const here = join(dirname(fileURLToPath(import.meta.url)), 'distributed');
const SITE_SIZE = 300;
const LIMIT = 240;
const WORKER_CONCURRENCY = 4;

const bigSite = treeSite(SITE_SIZE, { latencyMs: 15 });
const delaySite = treeSite(30, { prefix: '/slow' });
const busySite = treeSite(30, { prefix: '/busy', latencyMs: 150 });
let server: FixtureServer;

interface WorkerProcess {
  child: ChildProcess;
  /** Source URLs of the pages this worker stored, from its stdout. */
  pages: string[];
  /** Requests this worker sent: when their head was written (epoch ms) and their URL. */
  sent: { at: number; url: string }[];
  ready: Promise<void>;
  exited: Promise<void>;
}

function startWorker(url: string, prefix: string): WorkerProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(here, '..', 'helpers', 'built-hooks.ts'),
      join(here, 'worker-process.ts'),
      url,
      prefix,
      String(WORKER_CONCURRENCY),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pages: string[] = [];
  const sent: { at: number; url: string }[] = [];
  let buffer = '';
  let stderr = '';
  let onReady: () => void;
  let onFail: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onFail = reject;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line === 'ready') onReady();
      else if (line.startsWith('page ')) pages.push(line.slice(5));
      else if (line.startsWith('sent ')) {
        const [, at, url] = line.split(' ');
        sent.push({ at: Number(at), url: url! });
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      onFail(new Error(`worker exited before ready (${code ?? signal}): ${stderr}`));
      resolve();
    });
  });
  return { child, pages, sent, ready, exited };
}

function ok<T extends { success: boolean }>(value: T): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as unknown as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!testRedisUrl)('distributed crawl on three worker processes', () => {
  const prefix = `ck-kill-${randomUUID()}`;
  let workers: WorkerProcess[] = [];
  let client: Crawlkit;

  beforeAll(async () => {
    ensureBuilt();
    server = await startFixtureServer({ routes: { ...bigSite.routes, ...delaySite.routes, ...busySite.routes } });
    client = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    // Started once for both tests (a worker process loads crawlkit from source: seconds on a busy machine).
    workers = [0, 1, 2].map(() => startWorker(testRedisUrl!, prefix));
    await Promise.all(workers.map((w) => w.ready));
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await client.close();
    await server.close();
  });

  it('spaces requests to a host by the crawl delay across workers', async () => {
    const delayMs = 400;
    const pages = 10;
    const started = ok(
      await client.crawl({ url: `${server.url}/slow/1`, crawlEntireDomain: true, limit: pages, delay: delayMs / 1000 }),
    );
    const done = ok(await client.waitForJob(started.id));
    expect(done.status).toBe('completed');
    expect(done.data).toHaveLength(pages);

    expect(delaySite.hits.filter((h) => /^\/slow\/\d+$/.test(h.path))).toHaveLength(pages);
    // When each worker wrote the request's head, not when this process's server read it: on a loaded machine this
    // process can read two requests that left 400 ms apart in one turn of its loop (a 130 ms gap was seen).
    const times = workers
      .flatMap((w) => w.sent)
      .filter((s) => /\/slow\/\d+$/.test(s.url))
      .map((s) => s.at)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(pages);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Slots are spaced by `delay` on the Redis clock and taken right before the fetch, and the spacing counts again
    // from the moment the request leaves; a worker stalled between its slot and its request can still shorten one
    // gap on a busy machine, not the spacing overall. (Without shared slots, three workers running four tasks each
    // would send requests at once: gaps near 0.)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delayMs / 2);
    const mean = (times.at(-1)! - times[0]!) / gaps.length;
    expect(mean).toBeGreaterThanOrEqual(delayMs - 25);
    // More than one worker fetched pages of this crawl, so the spacing held across processes.
    expect(workers.filter((w) => w.pages.some((p) => p.includes('/slow/'))).length).toBeGreaterThan(1);
  }, 60_000);

  it("holds a job's maxConcurrency across workers", async () => {
    const done = ok(
      await client.waitForJob(
        ok(await client.crawl({ url: `${server.url}/busy/1`, crawlEntireDomain: true, limit: 30, maxConcurrency: 2 }))
          .id,
      ),
    );
    expect(done).toMatchObject({ status: 'completed', completed: 30 });
    // Three workers of four slots each would have up to 12 requests in flight without the shared running slots.
    expect(busySite.maxInFlight()).toBe(2);
    // Seeds are discovered once for the cluster: the two sitemap candidates under /busy/ were asked for once each,
    // not by every worker that took a task of the job (their fetches ran outside the job's slots).
    expect(
      busySite.hits
        .filter((h) => h.path.endsWith('/sitemap.xml'))
        .map((h) => h.path)
        .sort(),
    ).toEqual(['/busy/1/sitemap.xml', '/busy/sitemap.xml']);
    expect(workers.filter((w) => w.pages.some((p) => p.includes('/busy/'))).length).toBeGreaterThan(1);
  });

  it('stores every page exactly once within limit when a worker is killed with SIGKILL midway', async () => {
    const started = ok(await client.crawl({ url: `${server.url}/tree/1`, crawlEntireDomain: true, limit: LIMIT }));
    const victim = workers[0]!;
    await until(() => victim.pages.filter((p) => p.includes('/tree/')).length >= 15, 60_000);
    victim.child.kill('SIGKILL');
    await victim.exited;
    const treePages = (worker: WorkerProcess) => worker.pages.filter((p) => p.includes('/tree/'));
    const storedByVictim = treePages(victim).length;

    const done = ok(await client.waitForJob(started.id));
    expect(done.status).toBe('completed');
    // limit across workers: the job holds exactly LIMIT tasks, all settled.
    expect(done.total).toBe(LIMIT);
    expect(done.completed).toBe(LIMIT);

    // Every page exactly once in the results.
    const sources = done.data.map((d) => d.metadata.sourceURL);
    expect(sources).toHaveLength(LIMIT);
    expect(new Set(sources).size).toBe(LIMIT);
    for (const source of sources) expect(new URL(source).pathname).toMatch(/^\/tree\/\d+$/);

    // The survivors finished the job, and no page was stored by two workers. (Workers report pages on stdout after
    // storing them: the killed one may have stored a few it never reported, and the survivors' last lines may
    // arrive just after the job shows completed.)
    const reported = () => [...treePages(victim), ...workers.slice(1).flatMap(treePages)];
    await until(() => reported().length >= LIMIT - WORKER_CONCURRENCY, 5_000);
    expect(workers.slice(1).flatMap(treePages).length).toBeGreaterThan(0);
    const allStored = reported();
    expect(new Set(allStored).size).toBe(allStored.length);
    for (const page of allStored) expect(sources).toContain(page);
    expect(storedByVictim).toBeLessThan(LIMIT);

    // No page outside the limit was fetched; the only pages fetched twice were in flight in the killed worker.
    // (Each worker also probes the crawl's sitemap URLs once: those are not pages.)
    const fetched = bigSite.hits.map((h) => h.path).filter((path) => /^\/tree\/\d+$/.test(path));
    expect(new Set(fetched).size).toBe(LIMIT);
    expect(fetched.length - LIMIT).toBeLessThanOrEqual(WORKER_CONCURRENCY);
  }, 120_000);
});
