// Each stage of a scrape on its own: a state built by the stages before it, then what the stage under test adds to
// it (and what it leaves alone). Real engine runtime, real pages on 127.0.0.1, a real memory store.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../../fixtures/server.ts';
import { CrawlkitEmitter } from '../../events.js';
import { closeRuntime, type Runtime } from '../../runtime.js';
import { scrapeTestRuntime } from '../__fixtures__/scrape-runtime.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from '../../v2/scrape-options.js';
import { initialState } from '../run-scrape.js';
import type { ScrapeStage, ScrapeState } from '../scrape-state.js';
import { cacheLookup } from './cache-lookup.js';
import { cacheWrite } from './cache-write.js';
import { decodeStage } from './decode.js';
import { extractStage } from './extract.js';
import { fetchStage } from './fetch.js';
import { formatsStage } from './formats.js';
import { searchTextStage } from './search-text.js';

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

/** A fresh state for `path` (`maxAge` 0 unless given: the cache is written, not read). */
function stateFor(path: string, extra: Omit<ScrapeRequestInput, 'url'> = {}, jobId?: string): ScrapeState {
  const url = `${server.url}${path}`;
  const request = scrapeRequestSchema.parse({ url, maxAge: 0, ...extra });
  return initialState(rt.ctx, request, { sourceURL: url, zeroDataRetention: false, ...(jobId ? { jobId } : {}) });
}

/** Runs `stages` on `state` in order, as `runScrape` does (without its timings and error answers). */
async function through(state: ScrapeState, stages: readonly ScrapeStage[]): Promise<ScrapeState> {
  for (const stage of stages) await stage.run(state);
  return state;
}

describe('cache-lookup', () => {
  it('marks a miss and leaves the page to the fetch; answers a hit with the cached page and no request', async () => {
    const path = `/articles/first-post.html?stage=lookup-${Date.now()}`;
    const miss = await through(stateFor(path, { maxAge: 60_000 }), [cacheLookup]);
    expect(miss.cache.state).toBe('miss');
    expect(miss.page).toBeUndefined();

    await through(miss, [fetchStage, cacheWrite]);
    const before = server.requests.length;
    const hit = await through(stateFor(path, { maxAge: 60_000 }), [cacheLookup]);
    expect(hit.cache).toMatchObject({ state: 'hit', cachedAt: miss.cache.cachedAt, length: miss.cache.length });
    expect(hit.page?.status).toBe(200);
    expect(server.requests.length).toBe(before);
  });

  it('does not read the cache for maxAge 0 or headers, and refuses a minAge with nothing old enough', async () => {
    const fresh = await through(stateFor('/articles/first-post.html'), [cacheLookup]);
    expect(fresh.cache).toMatchObject({ readable: false, writable: true });
    expect(fresh.cache.state).toBeUndefined();
    const noCache = stateFor('/articles/first-post.html', { headers: { 'x-test': '1' } });
    await through(noCache, [cacheLookup]);
    expect(noCache.cache).toMatchObject({ readable: false });
    expect(noCache.cache.state).toBeUndefined();
    await expect(
      through(stateFor(`/articles/first-post.html?never=${Date.now()}`, { minAge: 1 }), [cacheLookup]),
    ).rejects.toMatchObject({ code: 'SCRAPE_NO_CACHED_DATA' });
  });
});

describe('fetch', () => {
  it('fetches the page once, with its status and content type; does nothing when a page is already there', async () => {
    const before = server.requests.length;
    const state = await through(stateFor('/articles/first-post.html'), [fetchStage]);
    expect(state.page).toMatchObject({ status: 200, engine: 'http' });
    expect(state.page!.contentType).toContain('text/html');
    expect(server.requests.length).toBe(before + 1);
    const page = state.page;
    await fetchStage.run(state);
    expect(state.page).toBe(page);
    expect(server.requests.length).toBe(before + 1);
  });

  it('calls onRequestStart right before the request leaves', async () => {
    const state = stateFor('/articles/first-post.html');
    let requestsAtStart = -1;
    state.onRequestStart = () => (requestsAtStart = server.requests.length);
    const before = server.requests.length;
    await through(state, [fetchStage]);
    expect(requestsAtStart).toBe(before);
  });
});

describe('cache-write', () => {
  it('writes a successful page under its key, and never a 404', async () => {
    const ok = await through(stateFor(`/articles/first-post.html?stage=write-${Date.now()}`), [fetchStage, cacheWrite]);
    expect(ok.cache.cachedAt).toBeTypeOf('number');
    expect(await rt.ctx.store.pages.get(ok.cache.key)).toMatchObject({ cachedAt: ok.cache.cachedAt });

    const missing = await through(stateFor(`/no-such-page-${Date.now()}.html`), [fetchStage, cacheWrite]);
    expect(missing.page?.status).toBe(404);
    expect(missing.cache.cachedAt).toBeUndefined();
    expect(await rt.ctx.store.pages.get(missing.cache.key)).toBeUndefined();
  });
});

describe('cache-write to an on-disk store', () => {
  it('hands the page on before its write commits: seen at once in this process, by another once committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-stage-cache-write-'));
    const events = new CrawlkitEmitter();
    const warnings: { code: string; message: string }[] = [];
    events.on('warning', (warning) => warnings.push(warning));
    const disk = await scrapeTestRuntime({ storeDir: dir }, events);
    const other = await createSqliteStore({ dir, hotTier: false });
    try {
      const diskState = (path: string, extra: Omit<ScrapeRequestInput, 'url'> = { maxAge: 0 }) => {
        const url = `${server.url}${path}`;
        const request = scrapeRequestSchema.parse({ url, ...extra });
        return initialState(disk.ctx, request, { sourceURL: url, zeroDataRetention: false });
      };
      const written = await through(diskState('/articles/first-post.html'), [fetchStage, cacheWrite]);
      expect(written.cache.cachedAt).toBeTypeOf('number');
      // The stage has handed the page on; its write commits after the answer, so another process sees none yet.
      expect(await other.pages.get(written.cache.key)).toBeUndefined();
      const again = await through(diskState('/articles/first-post.html', {}), [cacheLookup]);
      expect(again.cache).toMatchObject({ state: 'hit', cachedAt: written.cache.cachedAt });
      await disk.ctx.cacheWrites.settled();
      expect(await other.pages.get(written.cache.key)).toMatchObject({ cachedAt: written.cache.cachedAt });

      // A write that fails (the store closed under a scrape still running) is a warning, not lost silently. It names
      // the page's URL (was: the cache's key for it, without its scheme: `//127.0.0.1:…/articles/raw-html`).
      const late = await through(diskState('/articles/raw-html.html'), [fetchStage]);
      await disk.ctx.store.close();
      await through(late, [cacheWrite]);
      await disk.ctx.cacheWrites.settled();
      expect(warnings).toEqual([
        expect.objectContaining({
          code: 'CACHE_WRITE_FAILED',
          message: expect.stringContaining(`${server.url}/articles/raw-html`),
        }),
      ]);
    } finally {
      await other.close();
      await closeRuntime(disk);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('decode', () => {
  it('tells what the page is from its type and bytes, and puts the fetch notes first in the warnings', async () => {
    const html = await through(stateFor('/articles/first-post.html'), [fetchStage, decodeStage]);
    expect(html.input).toMatchObject({ kind: 'html', url: html.page!.url });
    const pdf = await through(stateFor('/files/report.pdf'), [fetchStage, decodeStage]);
    expect(pdf.input).toMatchObject({ kind: 'pdf', contentType: 'application/pdf' });
    expect(pdf.input!.body?.byteLength).toBeGreaterThan(0);
  });
});

describe('extract', () => {
  it('extracts what the formats need in the worker, and nothing they do not', async () => {
    const state = await through(stateFor('/articles/first-post.html', { formats: ['markdown'] }), [
      fetchStage,
      decodeStage,
      extractStage,
    ]);
    expect(state.extraction!.markdown).toContain('#');
    expect(state.extraction!.links).toBeUndefined();
    expect(state.document).toBeUndefined();
  });
});

describe('search-text', () => {
  const stages = [fetchStage, decodeStage, extractStage, searchTextStage];

  it("makes the page's index text in the worker when the cache or a job stores it, and not otherwise", async () => {
    // Links only: the index text is made from the markdown, which is then extracted for it alone.
    const cached = await through(stateFor('/articles/first-post.html', { formats: ['links'] }), stages);
    expect(cached.extraction!.markdown).toContain('#');
    expect(cached.extraction!.searchText).toBeTypeOf('string');
    expect(cached.searchText).toMatchObject({ text: cached.extraction!.searchText });
    expect(cached.searchText!.textDigest).toBe(cached.extraction!.searchTextDigest);

    const inJob = stateFor('/articles/first-post.html', { formats: ['links'], storeInCache: false }, 'job-1');
    await through(inJob, stages);
    expect(inJob.searchText).toEqual(cached.searchText);

    // Neither read from the cache (maxAge 0) nor written to it, outside a job: nothing would store the text.
    const unstored = stateFor('/articles/first-post.html', { formats: ['links'], storeInCache: false });
    await through(unstored, stages);
    expect(unstored.extraction!.markdown).toBeUndefined();
    expect(unstored.extraction!.searchText).toBeUndefined();
    expect(unstored.extraction!.searchTextDigest).toBeUndefined();
    expect(unstored.searchText).toBeUndefined();
    expect(unstored.extraction!.links).toEqual(cached.extraction!.links);
  });

  it("makes a kept extraction's text from its markdown when the store reads it: the worker's text, its digest", async () => {
    const fetched = await through(stateFor('/articles/first-post.html', { formats: ['links'] }), stages);
    // A kept extraction keeps the digest, not the text (`stored-extraction.ts`).
    const { searchText: made, ...kept } = fetched.extraction!;
    const confirmed = stateFor('/articles/first-post.html', { formats: ['links'] });
    confirmed.page = fetched.page;
    confirmed.extraction = kept;
    await searchTextStage.run(confirmed);
    expect(confirmed.searchText!.textDigest).toBe(fetched.extraction!.searchTextDigest);
    expect(made).toBeTypeOf('string');
    expect(confirmed.searchText!.text).toBe(made);
    expect({ ...confirmed.searchText }).toEqual(fetched.searchText);
  });
});

describe('formats', () => {
  it("starts the document with the page's metadata and lets each requested format write its field", async () => {
    const state = await through(stateFor('/articles/first-post.html', { formats: ['markdown', 'links'] }), [
      cacheLookup,
      fetchStage,
      decodeStage,
      extractStage,
      formatsStage,
    ]);
    const doc = state.document!;
    expect(Object.keys(doc).sort()).toEqual(['links', 'markdown', 'metadata']);
    expect(doc.metadata).toMatchObject({ statusCode: 200, sourceURL: `${server.url}/articles/first-post.html` });
    expect(doc.metadata.scrapeId).toBeTypeOf('string');
    expect(doc.links!.length).toBeGreaterThan(0);
  });
});
