/**
 * A batch against a host that answers 429: the host rests for its `Retry-After`, as in a crawl, so the batch's other
 * pages of that host are not sent into the refusal (a rate-limited batch of 300 ended with 200 pages stored as 429s).
 */
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;
const seen: { path: string; at: number }[] = [];

beforeAll(async () => {
  let refused = false;
  site = await startRouteSite({
    '/busy': (req, res) => {
      seen.push({ path: req.url!, at: performance.now() });
      if (refused) return sendPage(res, 'Busy', '<p>Served on the retry.</p>');
      refused = true;
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '2' });
      res.end('Too many requests.');
    },
    '/next': (req, res) => {
      seen.push({ path: req.url!, at: performance.now() });
      sendPage(res, 'Next', '<p>The page listed after the refused one.</p>');
    },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe('a batch whose host answers 429', () => {
  it('rests the host for its Retry-After: the next page of the host waits too', async () => {
    const started = await ck.batchScrape({ urls: [`${site.url}/busy`, `${site.url}/next`], maxConcurrency: 1 });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    expect(done.data.map((d) => d.metadata.statusCode)).toEqual([200, 200]);
    const refusal = seen.find((s) => s.path === '/busy')!;
    const next = seen.find((s) => s.path === '/next')!;
    expect(next.at - refusal.at).toBeGreaterThanOrEqual(1900);
    expect(seen.map((s) => s.path).filter((p) => p === '/busy')).toHaveLength(2);
  });
});
