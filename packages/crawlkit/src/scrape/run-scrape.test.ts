// The stage pipeline of one scrape: real engine runtime, real pages on 127.0.0.1, the real stages.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { closeRuntime, type Runtime } from '../runtime.js';
import { scrapeTestRuntime } from './__fixtures__/scrape-runtime.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from '../v2/scrape-options.js';
import { BEFORE_FETCH, FROM_FETCH, runScrape, SCRAPE_STAGES } from './run-scrape.js';
import type { ScrapeStage } from './scrape-state.js';
import type { ScrapeTimings } from './timings.js';

let server: FixtureServer;
let rt: Runtime;

beforeAll(async () => {
  server = await startFixtureServer();
  rt = await scrapeTestRuntime();
});

afterAll(async () => {
  await closeRuntime(rt);
  await server.close();
});

const PAGE = '/articles/first-post.html';
const request = (extra: Omit<ScrapeRequestInput, 'url'> = {}) =>
  scrapeRequestSchema.parse({ url: `${server.url}${PAGE}`, maxAge: 0, ...extra });
const context = () => ({ sourceURL: `${server.url}${PAGE}`, zeroDataRetention: false });

/** The scrape's stages with `stage` right before the fetch, as a job composes its own. */
const withBeforeFetch = (stage: ScrapeStage) => [...BEFORE_FETCH, stage, ...FROM_FETCH];

/** The timings of the scrapes run by `fn`. */
async function timed(fn: () => Promise<unknown>): Promise<ScrapeTimings[]> {
  const seen: ScrapeTimings[] = [];
  const listener = (message: unknown) => seen.push(message as ScrapeTimings);
  subscribe('crawlkit:scrape:timings', listener);
  try {
    await fn();
  } finally {
    unsubscribe('crawlkit:scrape:timings', listener);
  }
  return seen;
}

describe('runScrape', () => {
  it('runs the stages in order and reports the time of each', async () => {
    const [timing] = await timed(() => runScrape(rt.ctx, request(), context()));
    expect(timing!.stages.map((s) => s.name)).toEqual(SCRAPE_STAGES.map((s) => s.name));
    expect(timing!.outcome).toBe('success');
    expect(timing!.stages.every((s) => s.ms >= 0)).toBe(true);
  });

  it("counts the render judge's extraction under extract, not under fetch", async () => {
    // engine 'auto': the HTTP page is judged in the worker, and extracted in the same call when nothing is missing.
    const auto = await scrapeTestRuntime({ engine: 'auto' });
    try {
      await runScrape(auto.ctx, request(), context()); // the worker's start is no part of what is measured
      const [timing] = await timed(() => runScrape(auto.ctx, request(), context()));
      expect(timing!.outcome).toBe('success');
      const names = timing!.stages.map((s) => s.name);
      expect(names).toEqual(SCRAPE_STAGES.map((s) => s.name));
      const ms = (name: string) => timing!.stages.find((s) => s.name === name)!.ms;
      // Without the move, extract only hands on the judge's result (hundredths of a millisecond) and the worker's
      // round trip is counted under fetch.
      expect(ms('extract')).toBeGreaterThan(1);
      // The extraction's split lies within its stage: the wait for the worker, its run, the reply.
      const split = timing!.extraction!;
      expect(split.runMs).toBeGreaterThan(0);
      // The thread's CPU is read (a number, not undefined), but it may be 0: the kernel counts a thread's CPU in ticks,
      // and a warm worker can extract this page within one (seen in a quiet CI run).
      expect(split.cpuMs).toBeTypeOf('number');
      expect(split.cpuMs).toBeGreaterThanOrEqual(0);
      expect(split.waitMs + split.runMs + split.replyMs).toBeLessThanOrEqual(ms('extract') + 0.1);
    } finally {
      await closeRuntime(auto);
    }
  });

  it('answers a cache hit with no request, and the fetch stage then has nothing to do', async () => {
    const cached = (maxAge: number) =>
      scrapeRequestSchema.parse({ url: `${server.url}/articles/base-href.html`, maxAge });
    const ctx = { sourceURL: `${server.url}/articles/base-href.html`, zeroDataRetention: false };
    const first = await runScrape(rt.ctx, cached(60_000), ctx);
    expect(first).toMatchObject({ success: true, document: { metadata: { cacheState: 'miss' } } });
    const before = server.requests.length;
    const second = await runScrape(rt.ctx, cached(60_000), ctx);
    expect(second).toMatchObject({ success: true, document: { metadata: { cacheState: 'hit' } } });
    expect(server.requests.length).toBe(before);
  });

  it('suspends the timeout during an untimed stage (a host slot), then fetches', async () => {
    const before = server.requests.length;
    const wait: ScrapeStage = {
      name: 'wait',
      timed: false,
      // Longer than the page's timeout: a wait for a host's slot is no part of it.
      run: () => new Promise((resolve) => setTimeout(resolve, 1_300)),
    };
    const page = await runScrape(rt.ctx, request({ timeout: 1_000 }), context(), withBeforeFetch(wait));
    expect(page).toMatchObject({ success: true });
    expect(server.requests.length).toBe(before + 1);
  });

  it('ends early with what a stage answers (deferred, dropped), sending no request', async () => {
    const before = server.requests.length;
    const defer: ScrapeStage = { name: 'host-slot', run: () => ({ kind: 'deferred', retryInMs: 400 }) };
    expect(await runScrape(rt.ctx, request(), context(), withBeforeFetch(defer))).toEqual({
      kind: 'deferred',
      retryInMs: 400,
    });
    const drop: ScrapeStage = { name: 'host-slot', run: () => ({ kind: 'dropped' }) };
    expect(await runScrape(rt.ctx, request(), context(), withBeforeFetch(drop))).toEqual({ kind: 'dropped' });
    expect(server.requests.length).toBe(before);
  });

  it.each(['http', 'browser'] as const)(
    'ends deferred, sending nothing, when the %s request is held back as it leaves (its host began a rest)',
    async (engine) => {
      const runtime = engine === 'http' ? rt : await scrapeTestRuntime({ engine });
      try {
        const before = server.requests.length;
        const holdBack: ScrapeStage = {
          name: 'host-slot',
          run: (state) => {
            state.onRequestStart = () => {
              state.heldBackMs = 700;
              state.deadline.holdBack();
            };
          },
        };
        const outcome = await runScrape(runtime.ctx, request(), context(), withBeforeFetch(holdBack));
        expect(outcome).toEqual({ kind: 'deferred', retryInMs: 700 });
        // A navigation started before the abort reaches the server after the answer, or not at all: given the time.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(server.requests.slice(before)).toEqual([]);
      } finally {
        if (runtime !== rt) await closeRuntime(runtime);
      }
    },
  );

  it("rejects with a caller stage's failure (a job's store), but answers a page stage's failure as the page's", async () => {
    const down = new Error('connection to the store lost');
    const callers: ScrapeStage = { name: 'host-slot', failures: 'caller', run: () => Promise.reject(down) };
    await expect(runScrape(rt.ctx, request(), context(), withBeforeFetch(callers))).rejects.toBe(down);
    const pages: ScrapeStage = { name: 'broken', run: () => Promise.reject(down) };
    expect(await runScrape(rt.ctx, request(), context(), withBeforeFetch(pages))).toMatchObject({
      success: false,
      status: 500,
      error: { code: 'UNKNOWN_ERROR', error: expect.stringContaining('connection to the store lost') as string },
    });
  });

  it('answers a timeout as SCRAPE_TIMEOUT saying where the time went', async () => {
    const slow: ScrapeStage = { name: 'slow', run: () => new Promise((resolve) => setTimeout(resolve, 400)) };
    const stages = [...SCRAPE_STAGES.slice(0, -1), slow, SCRAPE_STAGES.at(-1)!];
    const outcome = await runScrape(rt.ctx, request({ timeout: 200 }), context(), stages);
    expect(outcome).toMatchObject({ success: false, error: { code: 'SCRAPE_TIMEOUT' } });
  });

  it.each([0, 150, 400])(
    'says the page timed out while fetching when the engine answers first, after a host slot of %i ms',
    async (waitMs) => {
      // The engine's own clock starts with the fetch, the page's with the slot: the two end together, and whichever
      // is read first, the page's time is what ran out.
      const wait: ScrapeStage = { name: 'wait', timed: false, run: () => new Promise((r) => setTimeout(r, waitMs)) };
      const hang = scrapeRequestSchema.parse({ url: `${server.url}/hostile/hang`, maxAge: 0, timeout: 500 });
      const outcome = await runScrape(rt.ctx, hang, context(), withBeforeFetch(wait));
      expect(outcome).toMatchObject({
        success: false,
        error: { code: 'SCRAPE_TIMEOUT', error: 'Scrape timed out after 500 ms while fetching the page.' },
      });
    },
  );

  it('refuses a format that needs a model before any stage runs', async () => {
    const before = server.requests.length;
    const outcome = await runScrape(rt.ctx, request({ formats: [{ type: 'json', prompt: 'title' }] }), context());
    expect(outcome).toMatchObject({
      success: false,
      error: { code: 'LLM_NOT_CONFIGURED', error: /json format needs a language model/ },
    });
    expect(server.requests.length).toBe(before);
  });
});
