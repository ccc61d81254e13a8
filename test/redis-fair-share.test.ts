/**
 * Jobs on Redis share the workers. The work queue served tasks in the order they were queued, and a crawl queues its
 * frontier as it discovers it: a job submitted while another's thousands of tasks were queued waited behind all of
 * them (two 3,000-page crawls on two workers: the second did 169 pages while the first did 3,000). The queue now
 * serves each job's n-th task before any job's (n+1)-th. A real `redis-server`; one worker taking one page at a time,
 * so the order of the site's requests is the queue's.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers-batch.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();
let site: Server;
let siteUrl = '';
/** Paths in the order the site was asked for them. */
const requested: string[] = [];

beforeAll(async () => {
  site = createServer((req, res) => {
    requested.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>${req.url}</title></head><body><main><p>Page ${req.url}.</p></main></body></html>`);
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => {
  site?.closeAllConnections();
  site?.close();
});

describe.skipIf(!testRedisUrl)('two jobs on Redis', () => {
  it("share a worker: a job queued behind another's 40 tasks does not wait for all of them", async () => {
    const prefix = `ck-fair-${randomUUID()}`;
    const submitter = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    const worker = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http', concurrency: 1 });
    try {
      const first = ok(
        await submitter.batchScrape({ urls: Array.from({ length: 40 }, (_, i) => `${siteUrl}/a/${i}`) }),
      );
      const second = ok(
        await submitter.batchScrape({ urls: Array.from({ length: 4 }, (_, i) => `${siteUrl}/b/${i}`) }),
      );
      await worker.startWorker({ concurrency: 1 });
      expect(ok(await submitter.waitForJob(second.id)).completed).toBe(4);
      expect(ok(await submitter.waitForJob(first.id)).completed).toBe(40);

      // Taken in turns: a1 b1 a2 b2 ... (before: all 40 of the first job, then the second's 4).
      const lastOfSecond = requested.findLastIndex((path) => path.startsWith('/b/'));
      expect(requested.slice(0, lastOfSecond + 1).filter((path) => path.startsWith('/a/')).length).toBeLessThan(10);
      expect(requested).toHaveLength(44);
    } finally {
      await worker.close();
      await submitter.close();
    }
  }, 60_000);
});
