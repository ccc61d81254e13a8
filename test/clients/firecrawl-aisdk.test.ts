/**
 * `firecrawl-aisdk`, the Firecrawl tools for the Vercel AI SDK, against the built `crawlkit serve`: each tool's
 * `execute` called with the input a model would send (parsed by the tool's own schema, as the AI SDK does), the
 * client given the server's address as its docs say: `scrape({ apiUrl, apiKey })` for the tools that take it, and
 * `FIRECRAWL_API_URL`/`FIRECRAWL_API_KEY` for `poll`, `status` and `cancel`, which build their client from the
 * environment alone.
 */
import { batchScrape, cancel, crawl, map, poll, scrape, search, status } from 'firecrawl-aisdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useClientStack, type ClientStack } from './harness.ts';

let stack: ClientStack;
useClientStack((started) => (stack = started));

beforeEach(() => {
  vi.stubEnv('FIRECRAWL_API_URL', stack.url);
  vi.stubEnv('FIRECRAWL_API_KEY', stack.key);
});
afterEach(() => vi.unstubAllEnvs());

interface AnyTool {
  inputSchema: unknown;
  execute?: (input: never, options: never) => unknown;
}

/** Runs a tool as the AI SDK does once a model chose it: its input checked by the tool's schema, then `execute`. */
async function run<T = Record<string, unknown>>(tool: AnyTool, input: Record<string, unknown>): Promise<T> {
  const schema = tool.inputSchema as { parse(value: unknown): unknown };
  const options = { toolCallId: 'call-1', messages: [] };
  return (await tool.execute!(schema.parse(input) as never, options as never)) as T;
}

/** The tools that take the server's address as an option. */
const at = () => ({ apiUrl: stack.url, apiKey: stack.key });

describe('firecrawl-aisdk tools', () => {
  it('scrape: markdown by default, and the query format answered from the page by the configured model', async () => {
    const page = stack.page('/shop/plane.html');
    const doc = await run<{ markdown: string; metadata: { sourceURL: string } }>(scrape(at()), { url: page });
    expect(doc.markdown).toContain('# No. 4 Smoothing Plane');
    expect(doc.metadata.sourceURL).toBe(page);
    const asked = await run<{ answer: string }>(scrape(at()), {
      url: page,
      formats: [{ type: 'query', prompt: 'What angle is the iron bedded at?' }],
    });
    expect(asked.answer).toContain('bedded at 45 degrees');
  });

  it('search finds the stored page; map lists the site', async () => {
    await run(scrape(at()), { url: stack.page('/articles/first-post.html') });
    const found = await run<{ web: { url: string }[] }>(search(at()), { query: 'sharpening hand plane', limit: 3 });
    expect(found.web[0]?.url).toBe(stack.page('/articles/first-post.html'));
    const mapped = await run<{ links: { url: string }[] }>(map(at()), { url: stack.page('/'), limit: 5 });
    expect(mapped.links.map((link) => link.url)).toContain(stack.page('/docs/getting-started.html'));
  });

  it('crawl starts a job that status reads and poll waits for; batchScrape waits for its pages', async () => {
    const started = await run<{ id: string }>(crawl(at()), { url: stack.page('/'), limit: 3 });
    const read = await run<{ status: string }>(status, { id: started.id, jobType: 'crawl' });
    expect(['scraping', 'completed']).toContain(read.status);
    const done = await run<{ success: boolean; status: string; total: number; data: { markdown?: string }[] }>(poll, {
      jobId: started.id,
      jobType: 'crawl',
      pollInterval: 0.2,
      maxWaitTime: 30,
    });
    expect(done).toMatchObject({ success: true, status: 'completed', total: 3 });
    expect(done.data).toHaveLength(3);
    const batch = await run<{ status: string; data: { markdown: string }[] }>(batchScrape(at()), {
      urls: [stack.page('/shop/plane.html'), stack.page('/articles/first-post.html')],
      formats: ['markdown'],
    });
    expect(batch.status).toBe('completed');
    expect(batch.data.map((doc) => doc.markdown.split('\n')[0])).toEqual([
      '# No. 4 Smoothing Plane',
      '# Sharpening a Hand Plane',
    ]);
  });

  it('cancel stops a running crawl', async () => {
    const started = await run<{ id: string }>(crawl(at()), { url: stack.page('/slow/'), limit: 4 });
    const cancelled = await run(cancel, { jobId: started.id, jobType: 'crawl' });
    expect(cancelled).toMatchObject({ success: true, jobId: started.id });
    const read = await run<{ status: string }>(status, { id: started.id, jobType: 'crawl' });
    expect(read.status).toBe('cancelled');
  });
});
