/**
 * Valid v2 options sent through the latest `@mendable/firecrawl-js` to the built `crawlkit serve`, where what comes
 * back differed from the spec (docs/v2-sweep.md has the whole sweep): each case is one such option, and what the
 * response must say for it.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startReceiver, until } from '../helpers-batch.ts';
import { startClientStack, type ClientStack } from './harness.ts';

let stack: ClientStack;
let fc: Firecrawl;

beforeAll(async () => {
  stack = await startClientStack();
  fc = new Firecrawl({ apiKey: stack.key, apiUrl: stack.url });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('scrape options', () => {
  it('proxy: a copy cached by a stealth scrape serves an auto or basic scrape as basic, billed 1 credit', async () => {
    const url = stack.page('/docs/getting-started.html');
    const stealth = await fc.scrape(url, { formats: ['markdown'], proxy: 'stealth' });
    expect(stealth.metadata).toMatchObject({ proxyUsed: 'stealth', creditsUsed: 5 });
    // The stealth fetch stored the page; the next scrapes are answered by that copy, without a proxy.
    for (const proxy of ['auto', 'basic'] as const) {
      const cached = await fc.scrape(url, { formats: ['markdown'], proxy });
      expect(cached.markdown).toBe(stealth.markdown);
      expect(cached.metadata).toMatchObject({ cacheState: 'hit', proxyUsed: 'basic', creditsUsed: 1 });
    }
  }, 60_000);
});

describe('actions', () => {
  it('click with all: a click that navigates ends it with a warning, and the page it opened is the result', async () => {
    // The article's links: `#content` (stays on the page), then `/` (leaves it), then more on the page it left.
    const doc = await fc.scrape(stack.page('/articles/first-post.html'), {
      formats: ['markdown'],
      actions: [{ type: 'click', selector: 'a', all: true }],
    });
    expect(doc.metadata?.url).toBe(stack.page('/'));
    expect(doc.markdown).toContain('Acme Field Notes');
    expect(doc.warning).toMatch(/click "a" with all: the page navigated by match \d+ of \d+, so the other \d+ matches/);
  }, 60_000);
});

describe('batch scrape', () => {
  it('webhook: every payload carries error, null when nothing failed (the interface payload)', async () => {
    const receiver = await startReceiver();
    try {
      const urls = [stack.page('/articles/first-post.html'), 'http://127.0.0.1:1/refused'];
      const job = await fc.batchScrape(urls, {
        webhook: { url: receiver.url, events: ['started', 'page', 'completed'], metadata: { run: 'sweep' } },
        pollInterval: 1,
      });
      await until(() => receiver.events.some((e) => e.payload.type === 'batch_scrape.completed'));
      const payloads = receiver.events.map((e) => e.payload).filter((p) => p.id === job.id);
      const byUrl = (url: string) =>
        payloads.find((p) => p.type === 'batch_scrape.page' && p.data[0]?.metadata.sourceURL === url);
      expect(payloads.find((p) => p.type === 'batch_scrape.started')).toMatchObject({ success: true, error: null });
      expect(byUrl(urls[0]!)).toMatchObject({ success: true, error: null, metadata: { run: 'sweep' } });
      expect(byUrl(urls[1]!)).toMatchObject({ success: false, error: expect.stringContaining('refused') });
      expect(payloads.find((p) => p.type === 'batch_scrape.completed')).toMatchObject({ success: true, error: null });
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe('search', () => {
  it('location and country, which only a web search provider reads, are answered with a warning', async () => {
    await fc.scrape(stack.page('/shop/plane.html'), { formats: ['markdown'] });
    const plain = await fc.search('smoothing plane', { limit: 3 });
    expect(plain.web?.map((r) => (r as { url: string }).url)).toContain(stack.page('/shop/plane.html'));
    expect((plain as { warning?: string }).warning).toBeUndefined();
    const located = await fc.search('smoothing plane', { limit: 3, location: 'Germany', country: 'DE' });
    expect(located.web).toEqual(plain.web);
    expect((located as { warning?: string }).warning).toBe(
      '`location` and `country` go to a web search provider only: the stored pages searched are not narrowed by them.',
    );
  });
});
