/**
 * The web search providers against local servers that speak their JSON APIs: SearXNG's `/search?format=json` and
 * Brave Search's `/res/v1/{web,news,images}/search`. No SearXNG can be installed here (it is a Python service with
 * its own engines reaching the Internet), so its format is served by a few lines of Node on 127.0.0.1, from
 * SearXNG's documented answer shape; the tests check what crawlkit asks and how it reads the answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type WebResult } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';

interface Seen {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
/** What the next answer is: `json` (the provider's format), or an HTTP status. */
let mode: 'json' | number = 'json';

const searxngResults = {
  query: 'rust async',
  number_of_results: 3,
  results: [
    {
      url: 'https://docs.rs/tokio',
      title: 'tokio - Rust',
      content: 'An event-driven, non-blocking I/O platform.',
      engine: 'duckduckgo',
      score: 3,
    },
    {
      url: 'https://blog.example.org/async',
      title: 'Async in Rust',
      content: 'How futures work.',
      engine: 'bing',
      publishedDate: '2026-01-02T00:00:00',
    },
    { url: 'https://www.example.com/other', title: 'Other', content: null, engine: 'bing' },
  ],
  answers: [],
  suggestions: [],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    if (mode !== 'json') {
      res.writeHead(mode);
      res.end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url.pathname === '/searx/search') {
      if (url.searchParams.get('categories') === 'images') {
        res.end(
          JSON.stringify({
            results: [
              {
                url: 'https://img.example/page',
                title: 'A crab',
                img_src: 'https://img.example/crab.png',
                resolution: '640 x 480',
              },
            ],
          }),
        );
      } else res.end(JSON.stringify(searxngResults));
    } else if (url.pathname === '/brave/web/search') {
      res.end(
        JSON.stringify({
          type: 'search',
          web: { results: [{ url: 'https://brave.example/a', title: 'A', description: 'first' }] },
        }),
      );
    } else if (url.pathname === '/brave/images/search') {
      res.end(
        JSON.stringify({
          results: [{ url: 'https://img.example/p', properties: { url: 'https://img.example/c.png' } }],
        }),
      );
    } else if (url.pathname === '/brave/news/search') {
      res.end(
        JSON.stringify({
          results: [{ url: 'https://news.example/n', title: 'N', description: 'news', age: '2 hours ago' }],
        }),
      );
    } else res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('SearXNG', () => {
  let ck: Crawlkit;
  beforeAll(() => {
    ck = new Crawlkit({
      store: 'memory',
      search: { provider: { kind: 'searxng', url: `${base}/searx`, language: 'en' } },
    });
  });
  afterAll(() => ck.close());

  it('asks its JSON API and answers upstream web results, positions and domain filters applied', async () => {
    seen.length = 0;
    const answer = ok(
      await ck.search({ query: 'rust async', limit: 2, tbs: 'qdr:w', excludeDomains: ['example.com'] }),
    );
    const asked = seen[0]!;
    expect(asked.path).toBe('/searx/search');
    expect(Object.fromEntries(asked.query)).toEqual({
      q: 'rust async -site:example.com',
      format: 'json',
      categories: 'general',
      time_range: 'week',
      language: 'en',
    });
    expect(answer.data.web).toEqual([
      {
        url: 'https://docs.rs/tokio',
        title: 'tokio - Rust',
        description: 'An event-driven, non-blocking I/O platform.',
        position: 1,
      },
      {
        url: 'https://blog.example.org/async',
        title: 'Async in Rust',
        description: 'How futures work.',
        date: '2026-01-02T00:00:00',
        position: 2,
      },
    ] satisfies WebResult[]);
    expect(answer.creditsUsed).toBe(2);
  });

  it('says which options it could not apply: location, country, a custom date range, several days', async () => {
    seen.length = 0;
    // Before: each was dropped in silence (qa49e); `qdr:d3` was sent as `time_range=day`, a third of what was asked.
    const ranged = ok(
      await ck.search({ query: 'rust async', tbs: 'cdr:1,cd_min:1/1/2026,cd_max:2/1/2026', location: 'Germany' }),
    );
    expect(seen[0]!.query.has('time_range')).toBe(false);
    expect(ranged.warning).toBe(
      'The searxng search provider does not apply `location`, `tbs`: its results are not narrowed by them.',
    );
    seen.length = 0;
    const days = ok(await ck.search({ query: 'rust async', tbs: 'qdr:d3', country: 'de' }));
    expect(seen[0]!.query.has('time_range')).toBe(false);
    expect(days.warning).toBe(
      'The searxng search provider does not apply `country`, `tbs`: its results are not narrowed by them.',
    );
    const week = ok(await ck.search({ query: 'rust async', tbs: 'qdr:w1' }));
    expect(week.warning).toBeUndefined();
  });

  it('answers images from its images category, and local results beside web ones', async () => {
    const answer = ok(await ck.search({ query: 'crab', sources: ['images', 'local'] }));
    expect(answer.data.images).toEqual([
      {
        url: 'https://img.example/page',
        title: 'A crab',
        imageUrl: 'https://img.example/crab.png',
        imageWidth: 640,
        imageHeight: 480,
        position: 1,
      },
    ]);
    expect(answer.data.local).toEqual([]);
  });

  it('answers SEARCH_PROVIDER_FAILED (502) when the instance refuses JSON', async () => {
    mode = 403;
    try {
      const answer = await ck.search({ query: 'rust' });
      expect(answer).toMatchObject({ success: false, code: 'SEARCH_PROVIDER_FAILED' });
      expect((answer as { error: string }).error).toContain('search.formats');
    } finally {
      mode = 'json';
    }
  });
});

describe('Brave Search', () => {
  it('sends the key and reads web and news answers', async () => {
    const ck = new Crawlkit({
      store: 'memory',
      search: { provider: { kind: 'brave', apiKey: 'bk-1', url: `${base}/brave` } },
    });
    try {
      seen.length = 0;
      const answer = ok(
        await ck.search({
          query: 'q',
          sources: ['web', 'news'],
          tbs: 'qdr:d',
          includeDomains: ['news.example', 'brave.example'],
        }),
      );
      expect(seen.map((s) => s.path)).toEqual(['/brave/web/search', '/brave/news/search']);
      expect(seen[0]!.headers['x-subscription-token']).toBe('bk-1');
      expect(seen[0]!.query.get('q')).toBe('q (site:news.example OR site:brave.example)');
      expect(seen[0]!.query.get('freshness')).toBe('pd');
      expect(answer.data.web).toEqual([
        { url: 'https://brave.example/a', title: 'A', description: 'first', position: 1 },
      ]);
      expect(answer.data.news).toEqual([
        { url: 'https://news.example/n', title: 'N', description: 'news', date: '2 hours ago', position: 1 },
      ]);
    } finally {
      await ck.close();
    }
  });

  it('applies country and a whole period, and says it cannot apply location or a period to images', async () => {
    const ck = new Crawlkit({
      store: 'memory',
      search: { provider: { kind: 'brave', apiKey: 'bk-1', url: `${base}/brave` } },
    });
    try {
      seen.length = 0;
      const web = ok(await ck.search({ query: 'q', tbs: 'qdr:m', country: 'DE' }));
      expect(seen[0]!.query.get('country')).toBe('de');
      expect(seen[0]!.query.get('freshness')).toBe('pm');
      expect(web.warning).toBeUndefined();
      const images = ok(await ck.search({ query: 'q', sources: ['images'], tbs: 'qdr:m', location: 'Berlin' }));
      expect(images.warning).toBe(
        'The brave search provider does not apply `location`, `tbs`: its results are not narrowed by them.',
      );
    } finally {
      await ck.close();
    }
  });

  it('is refused at construction without a key', () => {
    expect(() => new Crawlkit({ search: { provider: { kind: 'brave', apiKey: '' } } })).toThrow(/apiKey/);
  });
});

describe('a provider of your own', () => {
  const failing = (search: () => Promise<unknown>) =>
    new Crawlkit({ store: 'memory', search: { provider: { name: 'mine', sources: ['web'], search } as never } });

  it('that throws an error of its own answers SEARCH_PROVIDER_FAILED naming it, as the built-in ones do', async () => {
    const ck = failing(() => Promise.reject(new Error('quota exceeded')));
    try {
      expect(await ck.search({ query: 'rust' })).toMatchObject({
        success: false,
        code: 'SEARCH_PROVIDER_FAILED',
        error: 'The mine search provider failed: quota exceeded',
      });
    } finally {
      await ck.close();
    }
  });

  it('that answers no list is told so, and entries without a url are left out', async () => {
    const ck = failing(() => Promise.resolve({ results: [] }));
    const listed = failing(() => Promise.resolve([{ title: 'no url' }, { url: 'https://example.com/a', title: 'A' }]));
    try {
      expect(await ck.search({ query: 'rust' })).toMatchObject({
        success: false,
        code: 'SEARCH_PROVIDER_FAILED',
        error: expect.stringContaining('The mine search provider answered object, not a list of results') as string,
      });
      expect(await listed.search({ query: 'rust' })).toMatchObject({
        success: true,
        data: { web: [{ url: 'https://example.com/a', title: 'A', position: 1 }] },
      });
    } finally {
      await ck.close();
      await listed.close();
    }
  });
});
