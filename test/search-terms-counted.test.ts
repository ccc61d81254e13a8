/**
 * The Redis search index counts a page's terms as it writes them, and on the thread that writes the store that was
 * 1.4 ms a page (11 KB of text, every 5th dev page). The extraction worker now counts them beside the page's text
 * and its digest, and the store writes what it was given. The stages on a runtime with a real Redis store: the
 * worker's count is the text's own, it is dropped when the page's head changed after the worker, and a store that
 * counts nothing ahead (the memory store) is not sent counts.
 */
import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { countTerms } from '@crawlkit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { closeRuntime, type Runtime } from '../packages/crawlkit/src/runtime.ts';
import { scrapeTestRuntime } from '../packages/crawlkit/src/scrape/__fixtures__/scrape-runtime.ts';
import { initialState } from '../packages/crawlkit/src/scrape/run-scrape.ts';
import type { ScrapeState } from '../packages/crawlkit/src/scrape/scrape-state.ts';
import { decodeStage } from '../packages/crawlkit/src/scrape/stages/decode.ts';
import { extractStage } from '../packages/crawlkit/src/scrape/stages/extract.ts';
import { fetchStage } from '../packages/crawlkit/src/scrape/stages/fetch.ts';
import { searchTextStage } from '../packages/crawlkit/src/scrape/stages/search-text.ts';
import { scrapeRequestSchema } from '../packages/crawlkit/src/v2/scrape-options.ts';
import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

let server: FixtureServer;
let onRedis: Runtime;
let inMemory: Runtime;

beforeAll(async () => {
  server = await startFixtureServer();
  inMemory = await scrapeTestRuntime();
  if (testRedisUrl) {
    const backend = redis({ url: testRedisUrl, prefix: `ck-counted-${randomUUID()}` });
    onRedis = await scrapeTestRuntime({ store: undefined, backend });
  }
});

afterAll(async () => {
  if (onRedis) await closeRuntime(onRedis);
  await closeRuntime(inMemory);
  await server.close();
});

async function scraped(rt: Runtime, path: string): Promise<ScrapeState> {
  const url = `${server.url}${path}`;
  const request = scrapeRequestSchema.parse({ url, maxAge: 0, formats: ['links'] });
  const state = initialState(rt.ctx, request, { sourceURL: url, zeroDataRetention: false });
  for (const stage of [fetchStage, decodeStage, extractStage, searchTextStage]) await stage.run(state);
  return state;
}

describe.skipIf(!testRedisUrl)("a page's search terms, counted in the extraction worker", () => {
  it("are the text's own count, handed to the store with the text", async () => {
    const state = await scraped(onRedis, '/articles/first-post.html');
    const text = state.searchText!;
    expect(text.text.length).toBeGreaterThan(100);
    expect(text.counted).toEqual(countTerms({ ...text, counted: undefined }));
    expect(state.extraction!.searchTerms).toMatchObject({ title: text.title, description: text.description });
  });

  it("are dropped when the page's title changed after the worker counted them", async () => {
    const state = await scraped(onRedis, '/articles/first-post.html');
    state.extraction!.metadata['title'] = 'Another title';
    await searchTextStage.run(state);
    expect(state.searchText!.title).toBe('Another title');
    expect(state.searchText!.counted).toBeUndefined();
  });

  it('are not counted for a store that counts nothing ahead', async () => {
    const state = await scraped(inMemory, '/articles/first-post.html');
    expect(state.searchText!.text.length).toBeGreaterThan(100);
    expect(state.extraction!.searchTerms).toBeUndefined();
    expect(state.searchText!.counted).toBeUndefined();
  });
});
