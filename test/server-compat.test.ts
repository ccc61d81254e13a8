/**
 * `@crawlkit/server` over raw HTTP, one test per compatibility rule of issue 36: an empty body read as `{}`,
 * multipart answered by the route, upstream's 400 shape, CORS, `GET /v2/scrape/:id`, the team endpoints, the v1
 * routes translated to and from v2, numbers that agree with the data, no `next` for a client to loop on, and every
 * request the 2026 SDK may send accepted.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import Firecrawl from '@mendable/firecrawl-js';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-compat-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

let stack: ServeStack;
let base: string;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  base = stack.server.url;
});

afterAll(async () => {
  await stack?.close();
});

const post = (path: string, body: unknown, headers = auth) => call(base, 'POST', path, { body, headers });
const get = (path: string, headers: Record<string, string> = auth) => call(base, 'GET', path, { headers });

async function finished(path: string): Promise<Record<string, unknown>> {
  for (;;) {
    const answer = await get(path);
    if (answer.body.status !== 'scraping') return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('bodies', () => {
  it('reads an empty JSON body as {}: the Python SDK cancels with Content-Type json and no body', async () => {
    const started = await post('/v2/crawl', { url: stack.page('/held/cancel-1') });
    const id = started.body.id as string;
    const cancelled = await call(base, 'DELETE', `/v2/crawl/${id}`, {
      raw: '',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect((await get(`/v2/crawl/${id}`)).body.status).toBe('cancelled');
    // A POST without a body gets the route's own answer: the url is missing.
    const empty = await call(base, 'POST', '/v2/scrape', { raw: '', headers: auth });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.details)).toContain('url');
  });

  it('answers a multipart body to a JSON route saying to send JSON, never "malformed JSON"', async () => {
    const boundary = 'crawlkit-boundary';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttp://a.example\r\n--${boundary}--\r\n`;
    const headers = { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const scrape = await call(base, 'POST', '/v2/scrape', { raw, headers });
    expect(scrape.status).toBe(400);
    // As the other bodies it does not read (XML, gzip): before b53, the route's "url is required".
    expect(scrape.body.code).toBe('BAD_REQUEST_INVALID_JSON');
    expect(String(scrape.body.error)).toContain('the body is a multipart form');
    expect(String(scrape.body.error)).not.toContain('malformed');
    // The one multipart route reads the upload, and answers its own error for one without a file.
    const parse = await call(base, 'POST', '/v2/parse', { raw, headers });
    expect(parse.status).toBe(400);
    expect(parse.body.error).toContain('no `file` part');
  });

  it('answers 400s in upstream’s shape, its error going on with what to fix', async () => {
    const unknown = await post('/v2/scrape', { url: stack.page('/'), formatz: ['markdown'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(
      'Unrecognized key in body -- please review the v2 API documentation for request body changes (unknown: formatz)',
    );
    const issues = unknown.body.details as { code: string; message: string; path: unknown[] }[];
    expect(issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['formatz'] })]);

    // Upstream's bare "Bad Request" goes on with the field and the rule, which firecrawl-js shows as its message.
    const format = await post('/v2/scrape', { url: stack.page('/'), formats: ['nope'] });
    expect(format.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(format.body.error).toMatch(/^Bad Request: formats\[0\]\.type: Unknown format\. Use one of: markdown, /);
    const formatIssues = format.body.details as { message: string; path: unknown[] }[];
    expect(formatIssues[0]!.path).toEqual(['formats', 0, 'type']);
    expect(formatIssues.map((i) => i.message).join(' ')).toContain('Unknown format');
    const limit = await post('/v2/crawl', { url: stack.page('/'), limit: -5 });
    expect(limit.body.error).toBe('Bad Request: limit: Too small: expected number to be >0');

    const rule = await post('/v2/scrape', { url: stack.page('/'), waitFor: 8000, timeout: 15000 });
    expect(rule.body.error).toBe('waitFor must not exceed half of timeout');
  });

  it('accepts every request the 2026 SDK and CLIs send', async () => {
    const answer = await post('/v2/scrape', {
      url: stack.page('/articles/first-post.html'),
      formats: ['markdown', 'video', { type: 'query', prompt: 'grit', mode: 'directQuote' }],
      integration: 'cli',
      origin: 'cli',
      parsers: ['pdf', 'image'],
      redactPII: true,
      profile: { name: 'p' },
      threatProtection: { mode: 'manual-only', blacklist: ['evil.example'] },
      auditMetadata: { username: 'ana' },
      __experimental_omce: true,
    });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { answer: string; warning: string };
    expect(data.answer).toContain('1000 grit');
    expect(data.warning).toContain('video format');
    expect(data.warning).toContain('not redacted');
    const blocked = await post('/v2/scrape', {
      url: 'http://evil.example/',
      threatProtection: { blacklist: ['evil.example'] },
    });
    expect(blocked).toMatchObject({ status: 403, body: { code: 'URL_BLOCKED' } });
  });
});

describe('CORS', () => {
  it('answers a browser preflight without a key, and lets loopback origins read the answers', async () => {
    const preflight = await call(base, 'OPTIONS', '/v2/scrape', {
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const answer = await get('/v2/team/credit-usage', { ...auth, origin: 'http://127.0.0.1:8080' });
    expect(answer.headers['access-control-allow-origin']).toBe('http://127.0.0.1:8080');
  });

  it('refuses a request from another web origin before it does anything', async () => {
    const answer = await call(base, 'POST', '/v2/crawl', {
      raw: JSON.stringify({ url: stack.page('/') }),
      headers: { ...auth, origin: 'https://evil.example', 'content-type': 'text/plain' },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets any origin in with cors "*"', async () => {
    const open: CrawlkitServer = await startServer({ crawlkit: stack.ck, port: 0, cors: '*' });
    try {
      const answer = await call(open.url, 'GET', '/v2/team/queue-status', {
        headers: { origin: 'https://app.example' },
      });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await open.close();
    }
  });
});

describe('routes the clients call', () => {
  it('GET /v2/scrape/:id answers a scrape from the store', async () => {
    const scraped = await post('/v2/scrape', { url: stack.page('/docs/getting-started.html') });
    const doc = scraped.body.data as { markdown: string; metadata: { scrapeId: string } };
    const stored = await get(`/v2/scrape/${doc.metadata.scrapeId}`);
    expect(stored.body).toMatchObject({ success: true, data: { markdown: doc.markdown } });
    expect((await get('/v2/scrape/0192f0a4-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await get('/v2/scrape/not-an-id')).status).toBe(400);
  });

  it('answers the team endpoints with the engine’s own numbers', async () => {
    expect((await get('/v2/team/queue-status')).body).toMatchObject({
      success: true,
      jobsInQueue: expect.any(Number),
      activeJobsInQueue: expect.any(Number),
      waitingJobsInQueue: expect.any(Number),
      maxConcurrency: 16,
    });
    expect((await get('/v2/concurrency-check')).body).toMatchObject({ success: true, maxConcurrency: 16 });
    const credits = (await get('/v2/team/credit-usage')).body.data as Record<string, number>;
    expect(credits.planCredits! - credits.remainingCredits!).toBe(credits.creditsUsed);
    expect(credits.creditsUsed).toBeGreaterThan(0);
    const historical = await get('/v2/team/credit-usage/historical?byApiKey=true');
    expect(historical.body).toMatchObject({ success: true, periods: [{ creditsUsed: credits.creditsUsed }] });
    expect((await get('/v2/team/token-usage')).body).toMatchObject({ success: true, data: { tokensUsed: 0 } });
    expect((await get('/v2/team/token-usage/historical')).body).toMatchObject({ periods: [{ tokensUsed: 0 }] });
  });

  it('bills a map 1 credit, as upstream', async () => {
    const before = ((await get('/v2/team/credit-usage')).body.data as { creditsUsed: number }).creditsUsed;
    expect((await post('/v2/map', { url: stack.page('/') })).status).toBe(200);
    const after = ((await get('/v2/team/credit-usage')).body.data as { creditsUsed: number }).creditsUsed;
    expect(after - before).toBe(1);
  });
});

describe('the v1 API, translated to v2 and back', () => {
  it('POST /v1/scrape: string formats, v1 defaults (no cache), extract under its own key', async () => {
    const answer = await post('/v1/scrape', {
      url: stack.page('/articles/first-post.html'),
      formats: ['markdown', 'links'],
      parsePDF: false,
    });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { markdown: string; links: string[]; metadata: Record<string, unknown> };
    expect(data.markdown).toContain('# Sharpening a Hand Plane');
    expect(data.links).toContain(stack.page('/docs/getting-started.html'));
    // v1's maxAge is 0: never read from the cache.
    expect(data.metadata.cacheState).toBeUndefined();
    const unknown = await post('/v1/scrape', { url: stack.page('/'), formats: ['nope'] });
    expect(unknown.status).toBe(400);
    // a key v1 does not know names v1's documentation, not v2's
    const strange = await post('/v1/scrape', { url: stack.page('/'), formatz: ['markdown'] });
    expect(strange.status).toBe(400);
    expect(strange.body.error).toBe(
      'Unrecognized key in body -- please review the v1 API documentation for request body changes (unknown: formatz)',
    );
  });

  it('POST /v1/map answers links as strings', async () => {
    const answer = await post('/v1/map', { url: stack.page('/') });
    expect(answer.status).toBe(200);
    expect(answer.body.links).toContain(stack.page('/articles/first-post.html'));
    expect((answer.body.links as unknown[]).every((l) => typeof l === 'string')).toBe(true);
  });

  it('POST /v1/crawl with v1 options, its status with v1 next addresses, errors and cancel', async () => {
    const started = await post('/v1/crawl', {
      url: stack.page('/'),
      limit: 3,
      ignoreSitemap: true,
      allowBackwardLinks: true,
      scrapeOptions: { formats: ['markdown'] },
    });
    const id = started.body.id as string;
    expect(started.body.url).toBe(`${base}/v1/crawl/${id}`);
    const done = await finished(`/v1/crawl/${id}?limit=1`);
    expect(done).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    expect(done.next).toBe(`${base}/v1/crawl/${id}?skip=1&limit=1`);
    expect((await get(`/v1/crawl/${id}/errors`)).body).toMatchObject({ errors: [], robotsBlocked: [] });
    expect((await call(base, 'DELETE', `/v1/crawl/${id}`, { headers: auth })).status).toBe(409);
  });

  it('POST /v1/crawl refuses a maxDepth, ignoreSitemap or scrapeOptions it cannot read, naming it', async () => {
    const url = stack.page('/');
    for (const [field, value, message] of [
      ['maxDepth', -3, /`maxDepth` .*whole number.* 0 or more/],
      ['maxDepth', 'two', /`maxDepth` .*whole number/],
      ['ignoreSitemap', 'yes', /`ignoreSitemap` .*true or false/],
      ['allowBackwardLinks', 1, /`allowBackwardLinks` .*true or false/],
      ['scrapeOptions', [], /scrapeOptions.*object/],
    ] as const) {
      const answer = await post('/v1/crawl', { url, [field]: value });
      expect(answer.status, `${field}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(JSON.stringify(answer.body)).toMatch(message);
    }
  });

  it('POST /v1/batch/scrape, polled at /v1/crawl/:id as the v1 SDK does', async () => {
    const started = await post('/v1/batch/scrape', {
      urls: [stack.page('/articles/first-post.html')],
      formats: ['markdown'],
    });
    const id = started.body.id as string;
    expect(started.body.url).toBe(`${base}/v1/batch/scrape/${id}`);
    const done = await finished(`/v1/crawl/${id}`);
    expect(done).toMatchObject({ status: 'completed', completed: 1, total: 1 });
  });

  it('answers the v1 team routes in snake_case', async () => {
    const credits = await get('/v1/team/credit-usage');
    expect(credits.body).toMatchObject({ success: true, data: { remaining_credits: expect.any(Number) } });
  });
});

describe('numbers that agree with the data', () => {
  it('counts documents: a failed page is an error, a seed outside includePaths is neither', async () => {
    const started = await post('/v2/crawl', {
      url: stack.page('/'),
      includePaths: ['^/articles/'],
      sitemap: 'skip',
      limit: 20,
      scrapeOptions: { formats: ['markdown'] },
    });
    const id = started.body.id as string;
    const done = await finished(`/v2/crawl/${id}`);
    const data = done.data as unknown[];
    expect(data.length).toBeGreaterThan(0);
    expect({ completed: done.completed, total: done.total }).toEqual({ completed: data.length, total: data.length });
    expect(done.creditsUsed).toBe(data.length);

    const batch = await post('/v2/batch/scrape', { urls: [stack.page('/'), 'http://127.0.0.1:1/refused'] });
    const batchDone = await finished(`/v2/batch/scrape/${batch.body.id as string}`);
    expect(batchDone).toMatchObject({ completed: 1, total: 1 });
    const errors = await get(`/v2/batch/scrape/${batch.body.id as string}/errors`);
    expect(errors.body.errors).toHaveLength(1);
  });

  it('gives a running job no `next` to an empty page: the SDK’s getCrawlStatus makes one request', async () => {
    const started = await post('/v2/crawl', { url: stack.page('/held/loop-1'), limit: 2 });
    const id = started.body.id as string;
    let requests = 0;
    const proxy: Server = createServer((req, res) => {
      requests++;
      const upstream = httpRequest(new URL(req.url!, base), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const fc = new Firecrawl({ apiKey: KEY, apiUrl: `http://127.0.0.1:${port}` });
      const status = await fc.getCrawlStatus(id);
      expect(status.status).toBe('scraping');
      expect(requests).toBe(1);
    } finally {
      stack.release('/held/loop-1');
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
