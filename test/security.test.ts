/**
 * Hostile input at the public API: fuzzed v2 bodies never break the engine, secrets never leak, and the URL policy
 * holds end to end. The fetcher's own tests cover each limit and policy rule against misbehaving local servers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

import { createMemoryStore, type Store } from '@crawlkit/store';
import { Crawlkit, type ErrorResponse } from 'crawlkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { JOB_ID_METHODS } from './helpers/api-methods.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(async () => {
  await server.close();
});

type Method = 'scrape' | 'crawl' | 'batchScrape' | 'map';

/** Every field name of the v2 bodies, so mutations hit real options as well as unknown ones. */
const FIELDS = [
  'url',
  'urls',
  'formats',
  'onlyMainContent',
  'includeTags',
  'excludeTags',
  'maxAge',
  'minAge',
  'headers',
  'waitFor',
  'mobile',
  'skipTlsVerification',
  'timeout',
  'parsers',
  'actions',
  'location',
  'removeBase64Images',
  'blockAds',
  'proxy',
  'storeInCache',
  'zeroDataRetention',
  'limit',
  'includePaths',
  'excludePaths',
  'regexOnFullURL',
  'maxDiscoveryDepth',
  'sitemap',
  'ignoreQueryParameters',
  'crawlEntireDomain',
  'allowExternalLinks',
  'allowSubdomains',
  'delay',
  'maxConcurrency',
  'webhook',
  'scrapeOptions',
  'ignoreInvalidURLs',
  'search',
  'includeSubdomains',
  'prompt',
  'changeTrackingOptions',
  '__proto__',
  'constructor',
  'toString',
] as const;

const nasty = fc.constantFrom<unknown>(
  -1,
  0,
  Number.MAX_SAFE_INTEGER,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '\u0000',
  '[',
  '(?<',
  '*',
  'x'.repeat(100_000),
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<h1>x</h1>',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:1/',
  'http://127.0.0.1:1/',
  'http://0x7f.1/',
  'http://user:pass@127.0.0.1:1/',
  null,
  [],
  {},
  [[[[[[[[[[]]]]]]]]]],
  { type: 'json' },
  { type: 'screenshot', fullPage: 'yes' },
  ['markdown', 'markdown'],
  ['rawHtml', { type: 'json', schema: 'not a schema' }],
  [{ type: 'wait' }, { type: 'click' }],
  { country: 'ZZ' },
  { url: 'not a url', events: ['nope'] },
);

function seed(method: Method, url: string): Record<string, unknown> {
  switch (method) {
    case 'scrape':
      return { url: `${url}/articles/first-post.html`, formats: ['markdown'] };
    case 'crawl':
      return { url: `${url}/docs/`, limit: 2 };
    case 'batchScrape':
      return { urls: [`${url}/articles/first-post.html`, `${url}/listing.html`] };
    case 'map':
      return { url, limit: 5 };
  }
}

type Mutation = { kind: 'set'; field: string; value: unknown } | { kind: 'delete'; field: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    field: fc.constantFrom(...FIELDS),
    value: fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), field: fc.constantFrom(...FIELDS) }),
);

/** A whole body that is random, or a valid seed body with a few fields broken. */
const bodyCase = fc.record({
  method: fc.constantFrom<Method>('scrape', 'crawl', 'batchScrape', 'map'),
  replaceWhole: fc.option(fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 })), { freq: 6 }),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
});

function build(c: { method: Method; replaceWhole: unknown; mutations: Mutation[] }, base: string): unknown {
  if (c.replaceWhole !== null) return c.replaceWhole;
  const body: Record<string, unknown> = seed(c.method, base);
  for (const m of c.mutations) {
    if (m.kind === 'delete') delete body[m.field];
    else Object.defineProperty(body, m.field, { value: m.value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

function isErrorShape(value: unknown): value is ErrorResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.success === false && typeof v.code === 'string' && typeof v.error === 'string' && v.error.length > 0;
}

describe('requests that never break the engine', () => {
  let ck: Crawlkit;
  let store: Store;

  beforeAll(() => {
    store = createMemoryStore();
    // Only the fixture server is reachable: random URLs and webhooks never leave the machine.
    ck = new Crawlkit({
      store,
      engine: 'http',
      timeoutMs: 5000,
      urlPolicy: { allowedHosts: ['127.0.0.1'], allowedPorts: [server.port] },
    });
  });

  afterAll(async () => {
    await ck.close();
  });

  it('answers thousands of random and mutated v2 bodies with a v2 response or the v2 error shape', async () => {
    const seen = { ok: 0, errors: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(bodyCase, async (c) => {
        const body = build(c, server.url);
        const jobsBefore = (await store.jobs.list()).length;
        let response: unknown;
        try {
          response = await (ck[c.method] as (b: unknown) => Promise<unknown>).call(ck, body);
        } catch (error) {
          throw new Error(`${c.method} threw instead of answering: ${String(error)}`, { cause: error });
        }
        expect(typeof response).toBe('object');
        const r = response as { success?: unknown; id?: unknown };
        if (r.success === true) {
          seen.ok++;
          if (c.method === 'crawl' || c.method === 'batchScrape') {
            // A created job exists in full: its status answers, and it is stopped here to keep the run short.
            expect(typeof r.id).toBe('string');
            const id = r.id as string;
            const status = await (c.method === 'crawl' ? ck.getCrawlStatus(id) : ck.getBatchScrapeStatus(id));
            expect(status.success).toBe(true);
            await (c.method === 'crawl' ? ck.cancelCrawl(id) : ck.cancelBatchScrape(id));
          }
        } else {
          expect(isErrorShape(response), JSON.stringify(response)?.slice(0, 300)).toBe(true);
          const code = (response as ErrorResponse).code ?? '';
          seen.errors.set(code, (seen.errors.get(code) ?? 0) + 1);
          // A refused job leaves nothing behind.
          if (c.method === 'crawl' || c.method === 'batchScrape') {
            expect((await store.jobs.list()).length).toBe(jobsBefore);
          }
        }
      }),
      { numRuns: 2000, seed: 20261122 },
    );
    // The fuzzer must exercise both sides, or it proves nothing.
    expect(seen.ok).toBeGreaterThan(50);
    expect(seen.errors.get('BAD_REQUEST') ?? 0).toBeGreaterThan(500);
  }, 240_000);

  it('answers non-object arguments and missing arguments with the v2 error shape', async () => {
    for (const method of ['scrape', 'crawl', 'batchScrape', 'map'] as const) {
      for (const body of [undefined, null, 42, 'https://example.com', [], Symbol('x')]) {
        const response: unknown = await (ck[method] as (b: unknown) => Promise<unknown>).call(ck, body);
        expect(isErrorShape(response), `${method}(${String(body)})`).toBe(true);
        expect((response as ErrorResponse).code).toBe('BAD_REQUEST');
      }
    }
  });
});

/** Every method with its first argument: a valid one (an id of a finished job, a seed body) or a hostile one. */
type Call = { method: string; invoke: (ck: Crawlkit, args: unknown[]) => unknown };
const BODY_METHODS = ['scrape', 'crawl', 'batchScrape', 'map', 'crawlParamsPreview'] as const;
const CALLS: Call[] = [
  ...[...JOB_ID_METHODS, ...BODY_METHODS, 'getActiveCrawls', 'listUnfinishedJobs', 'getCreditUsage'].map((method) => ({
    method,
    invoke: (ck: Crawlkit, args: unknown[]) => (ck[method as keyof Crawlkit] as (...a: unknown[]) => unknown)(...args),
  })),
  { method: 'cache.prune', invoke: (ck, args) => (ck.cache.prune as (...a: unknown[]) => unknown)(...args) },
  { method: 'cache.clear', invoke: (ck, args) => (ck.cache.clear as (...a: unknown[]) => unknown)(...args) },
  {
    method: 'watch',
    invoke: async (ck, args) => {
      for await (const _ of (ck.watch as (...a: unknown[]) => AsyncGenerator<unknown>)(...args)) void _;
      return 'watched';
    },
  },
];

/** A second or third argument: call options (with a signal that may be bad or aborted), pagination, junk. */
const extraArgument = fc.oneof(
  fc.constant(undefined),
  nasty,
  fc.jsonValue({ maxDepth: 2 }),
  fc.record({ signal: fc.oneof(nasty, fc.constant('abort')) }, { requiredKeys: [] }),
  fc.record({ skip: fc.oneof(nasty, fc.nat()), limit: fc.oneof(nasty, fc.nat()) }, { requiredKeys: [] }),
  fc.record({ maxAgeMs: fc.oneof(nasty, fc.nat()) }),
);

describe('every method, every argument', () => {
  let ck: Crawlkit;
  let jobId: string;

  beforeAll(async () => {
    ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      timeoutMs: 5000,
      urlPolicy: { allowedHosts: ['127.0.0.1'], allowedPorts: [server.port] },
    });
    const started = await ck.batchScrape({ urls: [`${server.url}/articles/first-post.html`] });
    if (!started.success) throw new Error(started.error);
    jobId = started.id;
    await ck.waitForJob(jobId);
  });

  afterAll(async () => {
    await ck.close();
  });

  it('answers job ids, call options and second arguments of any type with a result or the v2 error shape', async () => {
    const first = (method: string, base: string): fc.Arbitrary<unknown> => {
      const valid: unknown[] = [];
      if ((JOB_ID_METHODS as readonly string[]).includes(method) || method === 'watch') {
        valid.push(jobId, `crawlkit://v2/batch/scrape/${jobId}?skip=0&limit=5`, '0190a8c4-0000-7000-8000-000000000000');
      }
      if ((BODY_METHODS as readonly string[]).includes(method)) {
        const seedMethod = method === 'crawlParamsPreview' ? 'crawl' : (method as Method);
        valid.push(seed(seedMethod, base));
      }
      return valid.length ? fc.oneof(fc.constantFrom(...valid), nasty, fc.jsonValue({ maxDepth: 2 })) : nasty;
    };
    const callCase = fc
      .constantFrom(...CALLS)
      .chain((call) => fc.tuple(fc.constant(call), first(call.method, server.url), extraArgument, extraArgument));
    const seen = { ok: 0, badRequest: 0 };
    await fc.assert(
      fc.asyncProperty(callCase, async ([call, arg0, arg1, arg2]) => {
        // 'abort' stands for an aborted signal (fast-check values are plain data).
        const args = [arg0, arg1, arg2].map((a) =>
          typeof a === 'object' && a !== null && (a as { signal?: unknown }).signal === 'abort'
            ? { ...a, signal: AbortSignal.abort() }
            : a,
        );
        const label = `${call.method}(${args.map((a) => String(JSON.stringify(a)).slice(0, 80)).join(', ')})`;
        let response: unknown;
        try {
          response = await call.invoke(ck, args);
        } catch (error) {
          // Only watch() throws, by contract: a BAD_REQUEST CrawlkitError, or the AbortError of its aborted signal.
          const e = error as { name?: string; code?: string };
          const expected = call.method === 'watch' && (e.code === 'BAD_REQUEST' || e.name === 'AbortError');
          if (!expected) throw new Error(`${label} threw instead of answering: ${String(error)}`, { cause: error });
          seen.badRequest++;
          return;
        }
        if (call.method === 'cache.prune' && typeof response === 'number') return void seen.ok++;
        if (call.method === 'cache.clear' && response === undefined) return void seen.ok++;
        if (call.method === 'listUnfinishedJobs' && Array.isArray(response)) return void seen.ok++;
        if (call.method === 'watch' && response === 'watched') return void seen.ok++;
        expect(typeof response, label).toBe('object');
        const r = response as { success?: unknown; id?: unknown; status?: unknown };
        if (r.success === false) {
          expect(isErrorShape(response), `${label} → ${JSON.stringify(response)?.slice(0, 300)}`).toBe(true);
          if ((response as ErrorResponse).code === 'BAD_REQUEST') seen.badRequest++;
          return;
        }
        seen.ok++;
        // A job started here is cancelled to keep the run short.
        if (
          r.success === true &&
          typeof r.id === 'string' &&
          (call.method === 'crawl' || call.method === 'batchScrape')
        ) {
          await (call.method === 'crawl' ? ck.cancelCrawl(r.id) : ck.cancelBatchScrape(r.id));
        }
      }),
      { numRuns: 600, seed: 20261124 },
    );
    expect(seen.ok).toBeGreaterThan(50);
    expect(seen.badRequest).toBeGreaterThan(100);
  }, 240_000);
});

describe('secrets never reach logs, errors or webhook payloads', () => {
  const PROXY_PASSWORD = 'pr0xy-S3CRET';
  const AUTH = 'Bearer auth-S3CRET';
  const COOKIE = 'session=cookie-S3CRET';
  const WEBHOOK_SECRET = 'whsec-S3CRET';
  const SECRETS = [PROXY_PASSWORD, 'auth-S3CRET', 'cookie-S3CRET', WEBHOOK_SECRET];

  it('keeps proxy credentials, header values and the webhook secret out of everything observable', async () => {
    const captured: string[] = [];
    const writeOut = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    const capture =
      (write: typeof writeOut) =>
      (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
      };
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body, JSON.stringify(req.headers));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    process.stdout.write = capture(writeOut);
    process.stderr.write = capture(writeErr);
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      timeoutMs: 3000,
      // An unreachable proxy: every proxied request fails, and its error must not carry the password.
      proxies: { basic: [`http://user:${PROXY_PASSWORD}@127.0.0.1:1`], proxyLoopback: true },
      webhooks: { secret: WEBHOOK_SECRET, timeoutMs: 2000 },
    });
    ck.on('error', (e) => captured.push(JSON.stringify(e)));
    ck.on('page', (e) => captured.push(JSON.stringify(e)));
    const headers = { Authorization: AUTH, Cookie: COOKIE };
    try {
      captured.push(
        JSON.stringify(await ck.scrape({ url: `${server.url}/articles/first-post.html`, headers, proxy: 'basic' })),
        JSON.stringify(await ck.scrape({ url: `${server.url}/hostile/reset`, headers })),
        JSON.stringify(await ck.scrape({ url: `${server.url}/hostile/drip?ms=5000`, headers, timeout: 1000 })),
        JSON.stringify(await ck.scrape({ url: `http://user:${PROXY_PASSWORD}@127.0.0.1:1/`, headers })),
      );
      const batch = await ck.batchScrape({
        urls: [`${server.url}/articles/first-post.html`, `${server.url}/hostile/reset`],
        headers,
        webhook: { url: hook, headers: { 'x-note': 'plain' }, metadata: { run: 'one' } },
      });
      if (!batch.success) throw new Error(batch.error);
      captured.push(JSON.stringify(await ck.waitForJob(batch.id)));
      captured.push(JSON.stringify(await ck.getBatchScrapeErrors(batch.id)));
      // The completion event is delivered in the background: wait for it.
      for (let i = 0; i < 100 && !received.some((b) => b.includes('batch_scrape.completed')); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      process.stdout.write = writeOut;
      process.stderr.write = writeErr;
      await ck.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }

    expect(received.some((b) => b.includes('batch_scrape.completed'))).toBe(true);
    // The proxied scrape did fail, so its error message was checked, not skipped.
    expect(captured[0]).toContain('"success":false');
    const everything = [...captured, ...received].join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  }, 60_000);
});

describe('the URL policy at the public API', () => {
  it('refuses a blocked address with URL_BLOCKED naming the rule, directly and after a redirect', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: 'strict' });
    try {
      const direct = await ck.scrape({ url: `${server.url}/articles/first-post.html` });
      expect(direct).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((direct as ErrorResponse).error).toMatch(/loopback|private/i);
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://0x7f000001/',
        'http://[::ffff:127.0.0.1]/',
      ]) {
        expect(await ck.scrape({ url })).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      }
    } finally {
      await ck.close();
    }

    const hosts = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { blockedHosts: ['localhost'] } });
    try {
      const redirected = await hosts.scrape({
        url: `${server.url}/hostile/redirect-to?url=${encodeURIComponent(`http://localhost:${server.port}/`)}`,
      });
      expect(redirected).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((redirected as ErrorResponse).error).toMatch(/blockedHosts/);
    } finally {
      await hosts.close();
    }
  });

  it('refuses non-web schemes for page URLs with BAD_REQUEST', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      for (const url of ['file:///etc/passwd', 'data:text/html,hi', 'javascript:alert(1)', 'ftp://127.0.0.1/x']) {
        expect(await ck.scrape({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(await ck.crawl({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(await ck.map({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      }
    } finally {
      await ck.close();
    }
  });

  it('never delivers a webhook to a blocked target, and records it in the job errors', async () => {
    let hits = 0;
    const receiver: Server = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      urlPolicy: { allowedPorts: [server.port] },
      webhooks: { maxAttempts: 1, timeoutMs: 1000 },
    });
    try {
      const batch = await ck.batchScrape({
        urls: [`${server.url}/articles/first-post.html`],
        webhook: `http://127.0.0.1:${port}/hook`,
      });
      if (!batch.success) throw new Error(batch.error);
      await ck.waitForJob(batch.id);
      let errors = await ck.getBatchScrapeErrors(batch.id);
      for (let i = 0; i < 100 && 'errors' in errors && errors.errors.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        errors = await ck.getBatchScrapeErrors(batch.id);
      }
      expect(hits).toBe(0);
      expect(JSON.stringify(errors)).toMatch(/URL_BLOCKED|allowedPorts/);
    } finally {
      await ck.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('the URL policy on every path (issue 23)', () => {
  /** A small site: robots.txt pointing at a sitemap that lists a page and a URL on a port the policies refuse. */
  let site: Server;
  let sitePort: number;
  let seen: string[];
  const REFUSED_PORT = 1;

  beforeAll(async () => {
    seen = [];
    site = createServer((req, res) => {
      seen.push(req.url ?? '');
      const host = req.headers.host ?? '';
      const origin = `http://${host}`;
      const refused = `http://${host.replace(/:\d+$/, '')}:${REFUSED_PORT}`;
      switch (req.url) {
        case '/robots.txt':
          return void res
            .writeHead(200, { 'content-type': 'text/plain' })
            .end(`User-agent: *\nSitemap: ${origin}/sitemap.xml\n`);
        case '/sitemap.xml':
          return void res
            .writeHead(200, { 'content-type': 'application/xml' })
            .end(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
                `<url><loc>${origin}/guide</loc></url><url><loc>${refused}/admin</loc></url></urlset>`,
            );
        case '/refresh':
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<meta http-equiv="refresh" content="0; url=${refused}/internal"><h1>Moved</h1><p>Redirecting.</p>`);
        default:
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<title>Guide</title><h1>Guide</h1><p>A page of the site, with enough words to count as one.</p>');
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    sitePort = (site.address() as AddressInfo).port;
  });

  afterAll(async () => {
    site.closeAllConnections();
    await new Promise<void>((r) => site.close(() => r()));
  });

  it('compares addresses in one form: blockedHosts 127.0.0.1 refuses its IPv6 spellings', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { blockedHosts: ['127.0.0.1'] } });
    try {
      for (const host of ['[::ffff:127.0.0.1]', '[::7f00:1]', '[64:ff9b::7f00:1]']) {
        const response = await ck.scrape({ url: `http://${host}:${sitePort}/guide` });
        expect(response, host).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      }
    } finally {
      await ck.close();
    }
  });

  it('map leaves out the sitemap URLs the policy refuses', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { allowedPorts: [sitePort] } });
    try {
      const mapped = await ck.map({ url: `http://127.0.0.1:${sitePort}/`, sitemap: 'only' });
      if (!mapped.success) throw new Error(mapped.error);
      const urls = mapped.links.map((l) => l.url);
      expect(urls).toContain(`http://127.0.0.1:${sitePort}/guide`);
      expect(urls.filter((u) => u.includes(`:${REFUSED_PORT}/`))).toEqual([]);
    } finally {
      await ck.close();
    }
  });

  it('fetches robots.txt and sitemaps through the same proxy as the pages', async () => {
    // The proxy is the only way to the site: it answers for a name this machine cannot resolve.
    const tunnels: string[] = [];
    const proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(sitePort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client).on('error', () => undefined);
        client.pipe(upstream).on('error', () => undefined);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      proxies: { basic: [`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`] },
    });
    try {
      seen.length = 0;
      const crawl = await ck.crawl({ url: 'http://site.invalid-tld.test/', limit: 3, sitemap: 'include' });
      if (!crawl.success) throw new Error(crawl.error);
      await ck.waitForJob(crawl.id);
      const mapped = await ck.map({ url: 'http://site.invalid-tld.test/', sitemap: 'only' });
      expect(seen.filter((p) => p === '/robots.txt').length).toBeGreaterThanOrEqual(2);
      expect(seen).toContain('/sitemap.xml');
      expect(mapped.success && mapped.links.map((l) => l.url)).toContain('http://site.invalid-tld.test/guide');
      expect(tunnels).toContain('site.invalid-tld.test:80');
      expect(tunnels.every((t) => t.startsWith('site.invalid-tld.test:'))).toBe(true);
    } finally {
      await ck.close();
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('answers URL_BLOCKED when a page in the browser refreshes to a refused URL', async () => {
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'browser',
      browser: { args: ISOLATED_ARGS },
      urlPolicy: { allowedPorts: [sitePort] },
      timeoutMs: 20_000,
    });
    try {
      const response = await ck.scrape({ url: `http://127.0.0.1:${sitePort}/refresh`, maxAge: 0 });
      expect(response).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    } finally {
      await ck.close();
    }
  }, 40_000);
});
