/**
 * A job whose store faults for a while (Redis at `maxmemory` under `noeviction`), run by a `crawlkit worker` process
 * on a real `redis-server` of the file's own, a prefix per test.
 *
 * - While its workers cannot store its pages, the job's status says so in its `warning` (which fault, since when,
 *   what to do, when it gives up), and `crawlkit status` prints it; the warning goes once a page is stored again.
 *   Before, the status showed a job that simply did not move.
 * - Past `storeFaultTimeoutMs` (`--store-fault-timeout-ms`) the job ends failed while Redis is still full, its error
 *   naming the fault and the option, and the pages stored before the fault are all there. Before, a full Redis kept
 *   BullMQ from delivering the tasks again, so the timeout was never reached and the job stayed `scraping`.
 * - The worker tells a job's fault once, then once a minute with how many more it met: before, a line for each run of
 *   each of the job's tasks, ~100 a second per worker (found running a deployment as an operator, 7,345 lines in 45 s).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createRedisStore, redis } from '@crawlkit/redis';
import { Crawlkit, type CrawlErrorsResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers-batch.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let server: RedisServer | undefined;
let dir: string;
/** An endless site: each page links three more. */
let site: Server;
let siteUrl = '';
const env = { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' };

beforeAll(async () => {
  ensureBuilt();
  server = await ownRedisServer(['--maxmemory-policy', 'noeviction']);
  dir = mkdtempSync(join(tmpdir(), 'ck-store-stalls-'));
  site = createServer((req, res) => {
    const n = Number(req.url?.split('/').pop()) || 0;
    const links = [1, 2, 3].map((i) => `<a href="/p/${n * 3 + i}">page ${n * 3 + i}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><title>P${n}</title></head><body><main><h1>Page ${n}</h1><p>${links}</p></main></body></html>`,
    );
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await stopOwnRedisServer(server);
  site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * A deployment of its own prefix: a `crawlkit worker` process (`flags` added; resolved once it takes tasks), a
 * submitting engine and an admin client of the server; `workerOutput` waits for a pattern in the worker's output.
 */
async function deployment(flags: string[] = []) {
  const prefix = `ck-stall-${randomUUID().slice(0, 8)}`;
  const args = ['worker', '--engine', 'http', '--redis', server!.url, '--redis-prefix', prefix];
  const child = startCli([...args, '--task-lock-ms', '1000', ...flags], { cwd: dir, env });
  let output = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr!.on('data', (chunk: string) => {
    output += chunk;
    for (const w of waiters.filter((w) => w.pattern.test(output))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const workerOutput = (pattern: RegExp) =>
    pattern.test(output) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ pattern, resolve }));
  const admin = await createRedisStore({ url: server!.url, prefix: `${prefix}-admin` });
  const submitter = new Crawlkit({ backend: redis({ url: server!.url, prefix }), engine: 'http' });
  await workerOutput(/taking tasks from/);
  return {
    prefix,
    submitter,
    workerOutput,
    /** The worker's output so far. */
    output: () => output,
    /** Redis full (`maxmemory` 1 byte) or not (0: no limit). */
    full: (full: boolean) => admin.client.config('SET', 'maxmemory', full ? '1' : '0'),
    close: async () => {
      await admin.client.config('SET', 'maxmemory', '0');
      if (child.exitCode === null) child.kill('SIGTERM');
      await child.result;
      await submitter.close();
      await admin.close();
    },
  };
}

/** The first `count` documents of a running job, as they are stored. */
async function firstPages(ck: Crawlkit, id: string, count: number): Promise<string[]> {
  const urls: string[] = [];
  for await (const doc of ck.watch(id)) {
    urls.push(doc.metadata.sourceURL);
    if (urls.length === count) break;
  }
  return urls;
}

describe('a job whose Redis is full', () => {
  it(
    'says in its status that it waits on the store, and why, until a page is stored again',
    { timeout: 90_000 },
    async () => {
      if (!server) return;
      const { prefix, submitter, workerOutput, full, close } = await deployment();
      try {
        const { id } = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 100_000, crawlEntireDomain: true }));
        await firstPages(submitter, id, 5);
        await full(true);
        // The worker notes the fault on the job before it prints it.
        await workerOutput(new RegExp(`error \\(not a page\\) job ${id}: .*OOM command not allowed`));

        const stalled = ok(await submitter.getCrawlStatus(id));
        expect(stalled.status).toBe('scraping');
        expect(stalled.warning).toMatch(/^The job is waiting on its store: since \d{4}-\d\d-\d\dT[\d:.]+Z /);
        expect(stalled.warning).toContain('OOM command not allowed');
        expect(stalled.warning).toContain('raise maxmemory');
        expect(stalled.warning).toContain('noeviction');
        expect(stalled.warning).toContain('--store-fault-timeout-ms');
        const status = await runCli(['status', id, '--redis', server.url, '--redis-prefix', prefix], { cwd: dir, env });
        expect(status.code).toBe(0);
        expect(status.stderr).toContain('warning: The job is waiting on its store');

        // Room again: the job moves, and once a page is stored after the last fault its workers met (one met at the
        // moment Redis takes writes again may be noted after the first page), the warning is gone while it runs.
        await full(false);
        let moving = stalled;
        for await (const _doc of submitter.watch(id, {})) {
          moving = ok(await submitter.getCrawlStatus(id, { skip: 0, limit: 1 }));
          if (moving.completed > stalled.completed && moving.warning === undefined) break;
        }
        expect(moving.status).toBe('scraping');
        expect(moving.warning).toBeUndefined();
        expect(moving.completed).toBeGreaterThan(stalled.completed);
        await submitter.cancelCrawl(id);
      } finally {
        await close();
      }
    },
  );

  it('tells the fault once while Redis stays full, not on every run of every task', { timeout: 90_000 }, async () => {
    if (!server) return;
    const { prefix, submitter, workerOutput, output, full, close } = await deployment();
    const reader = await createRedisStore({ url: server.url, prefix });
    try {
      const { id } = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 100_000, crawlEntireDomain: true }));
      await firstPages(submitter, id, 20);
      await full(true);
      const told = `error \\(not a page\\) job ${id}: .*OOM command not allowed`;
      await workerOutput(new RegExp(told));
      // The job's tasks meet the fault for 3 s (the worker notes it on the job each second it meets it).
      for (;;) {
        const fault = (await reader.jobs.get(id))?.storeFault;
        if (fault && fault.at - fault.since >= 3_000) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(output().match(new RegExp(told, 'g'))).toHaveLength(1);
      await full(false);
      await submitter.cancelCrawl(id);
    } finally {
      await reader.close();
      await close();
    }
  });

  it(
    'ends failed past --store-fault-timeout-ms, saying why, and keeps the pages stored',
    { timeout: 90_000 },
    async () => {
      if (!server) return;
      const { submitter, full, close } = await deployment(['--store-fault-timeout-ms', '1500']);
      try {
        const { id } = ok(await submitter.crawl({ url: `${siteUrl}/`, limit: 100_000, crawlEntireDomain: true }));
        const before = await firstPages(submitter, id, 5);
        await full(true);

        // Read while Redis is still full.
        const ended = ok(await submitter.waitForJob(id));
        expect(ended.status).toBe('failed');
        // Why it ended, and no stall warning now that it has.
        expect(ended.warning).toMatch(/^The job failed: The store kept failing/);
        expect(ended.warning).toContain('--store-fault-timeout-ms');
        const kept = ended.data.map((doc) => doc.metadata.sourceURL);
        expect(kept).toEqual(expect.arrayContaining(before));
        expect(ended.completed).toBe(kept.length);

        // Room again: the job's error (v2's errors list) is written, and nothing stored is lost.
        await full(false);
        let errors: CrawlErrorsResponse['errors'] = [];
        while (errors.length === 0) {
          errors = ((await submitter.getCrawlErrors(id)) as CrawlErrorsResponse).errors;
          if (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ code: 'STORE_IO', url: expect.stringContaining(siteUrl) });
        expect(errors[0]!.error).toMatch(
          /^The store kept failing this job's pages for \d+ s, past storeFaultTimeoutMs/,
        );
        expect(errors[0]!.error).toContain('--store-fault-timeout-ms');
        expect(errors[0]!.error).toContain('OOM command not allowed');
        expect(errors[0]!.error).toContain('raise maxmemory');
        // Pages a worker had started before it read the job again (within 1 s, as for a cancel) may be stored after.
        const after = ok(await submitter.waitForJob(id));
        expect(after.status).toBe('failed');
        const urls = after.data.map((doc) => doc.metadata.sourceURL);
        expect(urls).toEqual(expect.arrayContaining(kept));
        // Each page once: a page whose store write was retried is not stored twice.
        expect(new Set(urls).size).toBe(urls.length);
        expect(after.completed).toBe(after.data.length);
      } finally {
        await close();
      }
    },
  );
});
