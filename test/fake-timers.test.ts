// A user's test that fakes its clock (`vi.useFakeTimers()`, Jest's fake timers) to test code of its own, and scrapes
// with crawlkit in the same test: crawlkit's own waits (a turn of the event loop between slices, deadlines, the
// outbox's and the sweep's timers) are Node's, which fake timers do not reach, so the scrape and the crawl finish
// without the test advancing the fake clock.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, expect, it, vi } from 'vitest';

import { Crawlkit } from 'crawlkit';

const site = createServer((req, res) => {
  const n = Number(/^\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text of page ${n}.</p>
    <a href="/p/${n + 1}">next</a></main></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

afterEach(() => void vi.useRealTimers());
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

it('scrapes and crawls while the test fakes every timer, the engine made before and after', async () => {
  const before = new Crawlkit({ store: 'memory' });
  vi.useFakeTimers();
  try {
    // Before: a scrape never answered (the extraction pool's turn of the event loop was a faked setImmediate)
    const page = await before.scrape({ url: `${base}/p/1`, formats: ['markdown'] });
    expect(page.success && page.data.markdown).toContain('# Page 1');
    const after = new Crawlkit({ store: 'memory' });
    try {
      const crawl = await after.crawl({ url: `${base}/`, limit: 3 });
      if (!crawl.success) throw new Error(crawl.error);
      const done = await after.waitForJob(crawl.id);
      expect(done.success && done.status).toBe('completed');
      expect(done.success && done.data.length).toBe(3);
    } finally {
      await after.close();
    }
  } finally {
    await before.close();
  }
}, 15_000);
