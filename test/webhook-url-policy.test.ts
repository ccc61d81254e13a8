/**
 * A job's URL policy gates its webhooks too (issue 38, finding 1), in every process that sends them: the submitter
 * refuses a webhook its policy refuses, like a seed; an engine without a policy that resumes the job, and a Redis worker
 * without one, send none of the job's events to a target the job's policy refuses.
 *
 * The internal service is a port on 127.0.0.1 reached as `localhost`: the job's policy blocks the addresses
 * 127.0.0.1 and ::1, which a name passes at submit and is refused at connect (as a name that resolves to an internal
 * address, rebinding or not). The site is served on 127.0.0.2, which the policy allows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { redis } from '@crawlkit/redis';
import type { UrlPolicy } from '@crawlkit/fetcher';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers/job-backends.ts';
import { testRedis } from './setup/redis.ts';

const redisUrl = await testRedis();

interface Local {
  port: number;
  close(): Promise<void>;
}

async function listen(server: Server, host: string): Promise<Local> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let site: Local;
let internal: Local;
/** Requests the internal service received, with their headers. */
const received: IncomingHttpHeaders[] = [];
let connections = 0;
let root: string;
/** Allows the site (127.0.0.2), refuses every address of the internal service. */
const policy: UrlPolicy = { blockedHosts: ['127.0.0.1', '::1'] };

beforeAll(async () => {
  const service = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    res.end('{}');
  });
  service.on('connection', () => connections++);
  internal = await listen(service, '::');
  site = await listen(
    createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      // Slow enough that an engine closed right after crawl() leaves the job unfinished.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><body><main><h1>Page ${req.url}</h1><p>Public text.</p><a href="/b">b</a></main></body></html>`);
      }, 200);
    }),
    '127.0.0.2',
  );
  root = mkdtempSync(join(tmpdir(), 'ck-webhook-policy-'));
});
afterAll(async () => {
  await site.close();
  await internal.close();
  rmSync(root, { recursive: true, force: true });
});

const webhook = (host: string) => ({
  url: `http://${host}:${internal.port}/hook`,
  headers: { 'X-Internal-Token': 'forged' },
});
const crawlBody = () => ({ url: `http://127.0.0.2:${site.port}/`, limit: 3, webhook: webhook('localhost') });

/** Waits until the job's errors hold a given-up `completed` event, or the internal service was reached. */
async function settled(ck: Crawlkit, id: string): Promise<string[]> {
  for (;;) {
    const answer = await ck.getCrawlErrors(id);
    if (!('errors' in answer)) throw new Error(answer.error);
    const errors = answer.errors;
    const undelivered = errors.filter((e) => e.code === 'WEBHOOK_DELIVERY_FAILED').map((e) => e.error);
    if (connections > 0 || undelivered.some((e) => e.includes('crawl.completed'))) return undelivered;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a job's webhook under its URL policy", () => {
  it('is refused at submit when the policy refuses its URL, before any job or connection', async () => {
    const ck = new Crawlkit({ storeDir: join(root, 'submit'), engine: 'http', urlPolicy: policy });
    try {
      const crawl = await ck.crawl({ ...crawlBody(), webhook: webhook('127.0.0.1') });
      expect(crawl).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((crawl as { error: string }).error).toMatch(/webhook/);
      const batch = await ck.batchScrape({
        urls: [`http://127.0.0.2:${site.port}/x`],
        webhook: `http://[::1]:${internal.port}/hook`,
      });
      expect(batch).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect(await ck.listUnfinishedJobs()).toEqual([]);
    } finally {
      await ck.close();
    }
    expect(connections).toBe(0);
  });

  it('holds when an engine without a policy resumes the job', async () => {
    const dir = join(root, 'resume');
    const submitter = new Crawlkit({ storeDir: dir, engine: 'http', urlPolicy: policy });
    const { id } = ok(await submitter.crawl(crawlBody()));
    await submitter.close();
    const resumer = new Crawlkit({ storeDir: dir, engine: 'http', resumeJobs: true });
    try {
      expect(ok(await resumer.waitForJob(id)).status).toBe('completed');
      const undelivered = await settled(resumer, id);
      expect(connections).toBe(0);
      expect(undelivered.some((e) => e.includes('crawl.page') && /URL_BLOCKED|URL policy/.test(e))).toBe(true);
    } finally {
      await resumer.close();
    }
    expect(received).toEqual([]);
  });

  it.skipIf(!redisUrl)(
    'holds on a Redis worker without a policy',
    async () => {
      const options = redis({
        url: redisUrl!,
        prefix: `ck-webhook-policy-${randomUUID()}`,
        secretKey: randomBytes(32).toString('base64'),
      });
      // A close sends what its process queued and nobody tried yet, for up to the webhook timeout: set past this test's
      // own, so that waiting on events the worker sends or gives up fails the test instead of only slowing it.
      const submitter = new Crawlkit({
        backend: options,
        engine: 'http',
        urlPolicy: policy,
        webhooks: { timeoutMs: 120_000 },
      });
      const worker = new Crawlkit({ backend: options, engine: 'http' });
      try {
        await worker.startWorker();
        const { id } = ok(await submitter.crawl(crawlBody()));
        // Only the worker is left to send the job's events.
        await submitter.close();
        expect(ok(await worker.waitForJob(id)).status).toBe('completed');
        const undelivered = await settled(worker, id);
        expect(connections).toBe(0);
        expect(undelivered.length).toBeGreaterThan(0);
      } finally {
        await submitter.close();
        await worker.close();
      }
      expect(received).toEqual([]);
    },
    60_000,
  );
});
