/**
 * A page sent back with a wait (a 429's `Retry-After`) is fetched again when the wait is over, not when another page
 * of the job, still loading, settles: a Crawlee user's crawl retried a 429 (`Retry-After: 3`) 15 s later, when an
 * unrelated slow page timed out.
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

const SLOW_MS = 8_000;
let site: FixtureServer;
let ck: Crawlkit;
const busy: number[] = [];
/** When `/slow` answered. */
let slowAnswered = Infinity;

beforeAll(async () => {
  site = await startRouteSite({
    '/busy': (_req, res) => {
      busy.push(performance.now());
      if (busy.length > 1) return sendPage(res, 'Busy', '<p>Served on the retry.</p>');
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' });
      res.end('Too many requests.');
    },
    '/slow': (_req, res) => {
      setTimeout(() => {
        slowAnswered = performance.now();
        sendPage(res, 'Slow', '<p>A page that takes its time.</p>');
      }, SLOW_MS).unref();
    },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe('a page retried after its Retry-After while another page loads', () => {
  it('is fetched again once its wait is over', { timeout: 30_000 }, async () => {
    const started = await ck.batchScrape({ urls: [`${site.url}/slow`, `${site.url}/busy`], maxConcurrency: 2 });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    expect(done.data.map((d) => d.metadata.statusCode)).toEqual([200, 200]);
    expect(busy).toHaveLength(2);
    expect(busy[1]! - busy[0]!).toBeGreaterThanOrEqual(900);
    // Before: claimed again when /slow settled, 8 s after. (Not a bound on the wait itself: a loaded machine takes
    // seconds to read the 429 and start the extraction threads.)
    expect(busy[1]!).toBeLessThan(slowAnswered);
  });
});
