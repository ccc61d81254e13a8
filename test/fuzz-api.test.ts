/**
 * Fuzzed input at the public API: random and mutated v2 bodies, and every method with arguments of any type, always
 * get a v2 response or the v2 error shape, never an exception.
 */
import { createMemoryStore, type Store } from '@crawlkit/store';
import { Crawlkit, type ErrorResponse } from 'crawlkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useFixtureServer } from './helpers/fixture-engine.ts';
import { JOB_ID_METHODS } from './helpers/api-methods.ts';
import { bodyCase, build, isErrorShape, nasty, seed, type Method } from './helpers/fuzz-bodies.ts';

const fixture = useFixtureServer();

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
      urlPolicy: { allowedHosts: ['127.0.0.1'], allowedPorts: [fixture.server.port] },
    });
  });

  afterAll(async () => {
    await ck.close();
  });

  it('answers thousands of random and mutated v2 bodies with a v2 response or the v2 error shape', async () => {
    const seen = { ok: 0, errors: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(bodyCase, async (c) => {
        const body = build(c, fixture.server.url);
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
    method: 'cache.pruneHistory',
    invoke: (ck, args) => (ck.cache.pruneHistory as (...a: unknown[]) => unknown)(...args),
  },
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
      urlPolicy: { allowedHosts: ['127.0.0.1'], allowedPorts: [fixture.server.port] },
    });
    const started = await ck.batchScrape({ urls: [`${fixture.server.url}/articles/first-post.html`] });
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
      .chain((call) =>
        fc.tuple(fc.constant(call), first(call.method, fixture.server.url), extraArgument, extraArgument),
      );
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
          // Only watch() throws, by contract: a BAD_REQUEST or JOB_NOT_FOUND CrawlkitError, or the AbortError of its
          // aborted signal.
          const e = error as { name?: string; code?: string };
          const expected =
            call.method === 'watch' &&
            (e.code === 'BAD_REQUEST' || e.code === 'JOB_NOT_FOUND' || e.name === 'AbortError');
          if (!expected) throw new Error(`${label} threw instead of answering: ${String(error)}`, { cause: error });
          seen.badRequest++;
          return;
        }
        if (call.method.startsWith('cache.prune') && typeof response === 'number') return void seen.ok++;
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
