/**
 * A web search with `scrapeOptions` whose result's page is slower than the search's `timeout`: the results are still
 * answered (the slow one without its document, counted in the warning), not lost whole to `SEARCH_TIMEOUT`.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type WebSearchProvider } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let site: Server;
let base: string;
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/slow') {
      hanging.add(res); // never answers within the test's search timeout
      return;
    }
    if (req.url === '/reset') {
      req.socket.destroy(); // the connection dies before an answer
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<html><head><title>Fast</title></head><body><main><p>The fast page answers at once.</p></main></body></html>',
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

describe('search scrapeOptions and the search timeout', () => {
  it('lists a result whose page outlasts the timeout without its document, keeping the others', async () => {
    const provider: WebSearchProvider = {
      name: 'fixture',
      sources: ['web'],
      search: () =>
        Promise.resolve([
          { url: `${base}/fast`, title: 'Fast', description: 'answers' },
          { url: `${base}/slow`, title: 'Slow', description: 'never answers' },
        ]),
    };
    const ck = new Crawlkit({ store: 'memory', engine: 'http', search: { provider } });
    try {
      // 8 s, not 2: the fast page must be scraped within the budget on a loaded CI machine too
      const answer = await ck.search({ query: 'pages', timeout: 8_000, scrapeOptions: { formats: ['markdown'] } });
      expect(answer.success, JSON.stringify(answer)).toBe(true);
      if (!answer.success) return;
      const [fast, slow] = answer.data.web as { url: string; markdown?: string }[];
      expect(fast!.url).toBe(`${base}/fast`);
      expect(fast!.markdown).toContain('The fast page answers at once.');
      expect(slow!.url).toBe(`${base}/slow`);
      expect(slow!.markdown).toBeUndefined();
      // Before: nothing on the result said it failed, or why (qa49e): only the warning counted it
      expect((slow as { metadata?: unknown }).metadata).toEqual({
        sourceURL: `${base}/slow`,
        url: `${base}/slow`,
        statusCode: 408,
        error: "The search's `timeout` (8000 ms) ran out before this result was scraped.",
        errorCode: 'SCRAPE_TIMEOUT',
      });
      expect(answer.warning).toContain('1 result(s) could not be scraped');
    } finally {
      await ck.close();
    }
  });

  it("says on each failed result why: its scrape's error, a threatProtection refusal", async () => {
    const provider: WebSearchProvider = {
      name: 'fixture',
      sources: ['web'],
      search: () =>
        Promise.resolve([
          { url: `${base}/fast`, title: 'Fast' },
          { url: `${base}/reset`, title: 'Reset' },
          { url: 'https://bad.example/x', title: 'Listed' },
        ]),
    };
    const ck = new Crawlkit({ store: 'memory', engine: 'http', search: { provider } });
    try {
      const answer = await ck.search({
        query: 'pages',
        timeout: 20_000,
        scrapeOptions: {
          formats: ['markdown'],
          threatProtection: { mode: 'normal', blacklist: ['bad.example'] },
        },
      });
      expect(answer.success, JSON.stringify(answer)).toBe(true);
      if (!answer.success) return;
      const [fast, reset, listed] = answer.data.web as { markdown?: string; metadata?: Record<string, unknown> }[];
      expect(fast!.markdown).toContain('The fast page answers at once.');
      expect(fast!.metadata!.error).toBeUndefined();
      expect(reset!.markdown).toBeUndefined();
      expect(reset!.metadata).toMatchObject({ sourceURL: `${base}/reset`, error: expect.any(String) });
      expect(reset!.metadata!.errorCode).toEqual(expect.any(String));
      expect(listed!.metadata).toMatchObject({ statusCode: 403, errorCode: 'URL_BLOCKED' });
      expect(listed!.metadata!.error).toContain('blacklist');
      expect(answer.warning).toContain('2 result(s) could not be scraped');
    } finally {
      await ck.close();
    }
  });
});
