/**
 * Record and replay of a crawl whose site refused a page once (429 with `Retry-After`) and served it on the retry.
 * The recording keeps each URL's first response, but a 429/503 is not a URL's answer: the retry's response is
 * recorded after it, and replay serves that one, so the replayed crawl has the page the live crawl stored (and does
 * not wait out the retries the recording's refusal would ask for).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type JobStatusResponse } from 'crawlkit';
import { indexWarc } from '@crawlkit/fetcher/warc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { busyOnce, sendPage, startRouteSite } from './helpers/route-site.ts';

let dir: string;
let base: string;
let live: JobStatusResponse;
const busy = busyOnce();

function busyPage(status: JobStatusResponse) {
  const doc = status.data.find((d) => d.metadata.sourceURL === `${base}/busy`);
  return { statusCode: doc?.metadata.statusCode, markdown: doc?.markdown };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawlkit-replay-retried-'));
  const site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Home', '<p>The shop.</p><a href="/busy">Busy page</a>'),
    '/busy': busy.route,
  });
  base = site.url;
  const ck = new Crawlkit({ storeDir: join(dir, 'store'), engine: 'http' });
  try {
    const started = await ck.crawl({ url: `${base}/`, sitemap: 'skip', record: true });
    if (!started.success) throw new Error(`crawl refused: ${started.error}`);
    const status = await ck.waitForJob(started.id);
    if (!status.success) throw new Error(`crawl failed: ${status.error}`);
    live = status;
  } finally {
    await ck.close();
    await site.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replay of a page the site refused once', () => {
  it('records the refusal and the retry, and replays the page the live crawl stored', async () => {
    expect(busy.requests).toBe(2);
    expect(busyPage(live)).toMatchObject({ statusCode: 200, markdown: expect.stringContaining('second try') });
    const index = await indexWarc(live.warcFile!);
    expect(index.responses.get(`${base}/busy`)).not.toHaveProperty('retryLater');

    const replay = new Crawlkit({ store: 'memory', engine: 'replay', replay: { files: [live.warcFile!] } });
    try {
      const started = await replay.crawl({ url: `${base}/`, sitemap: 'skip' });
      if (!started.success) throw new Error(`replay refused: ${started.error}`);
      const again = await replay.waitForJob(started.id);
      if (!again.success) throw new Error(`replay failed: ${again.error}`);
      expect(busyPage(again)).toEqual(busyPage(live));
    } finally {
      await replay.close();
    }
  });
});
