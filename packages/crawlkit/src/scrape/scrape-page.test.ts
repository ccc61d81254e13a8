// The pacing contract of one page scrape (a crawl's host slot): real engine runtime, real pages on 127.0.0.1.
import { EventEmitter } from 'node:events';

import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import type { CrawlkitEvents } from '../events.js';
import { silentLogger } from '../logger.js';
import { resolveOptions, type CrawlkitOptions } from '../options.js';
import { Reporter } from '../reporter.js';
import { closeRuntime, createRuntime, type Runtime } from '../runtime.js';
import { scrapeRequestSchema } from '../v2/scrape-options.js';
import { scrapePage } from './scrape-page.js';
import { ScrapeDeferred } from './types.js';

let server: FixtureServer;
let rt: Runtime;

beforeAll(async () => {
  server = await startFixtureServer();
  const raw: CrawlkitOptions = { store: 'memory', engine: 'http' };
  rt = await createRuntime({
    raw,
    options: resolveOptions(raw),
    queue: new PQueue({ concurrency: 2 }),
    reporter: new Reporter(new EventEmitter<CrawlkitEvents>(), silentLogger),
  });
});

afterAll(async () => {
  await closeRuntime(rt);
  await server.close();
});

const request = (path: string, extra: object = {}) =>
  scrapeRequestSchema.parse({ url: `${server.url}${path}`, maxAge: 0, ...extra });

describe('scrapePage pacing', () => {
  it('waits for pace outside the timeout, then fetches', async () => {
    const before = server.requests.length;
    const page = await scrapePage(rt.ctx, request('/articles/first-post.html', { timeout: 1_000 }), {
      sourceURL: `${server.url}/articles/first-post.html`,
      zeroDataRetention: false,
      // Longer than the page's timeout: the wait for a host's slot is no part of it.
      pace: () => new Promise((resolve) => setTimeout(resolve, 1_300)),
    });
    expect(page).toMatchObject({ success: true });
    expect(server.requests.length).toBe(before + 1);
  });

  it('rejects with what pace throws, and sends no request: a deferral or a store failure is not a failed page', async () => {
    const before = server.requests.length;
    const context = { sourceURL: `${server.url}/articles/first-post.html`, zeroDataRetention: false };
    const deferred = new ScrapeDeferred(400);
    await expect(
      scrapePage(rt.ctx, request('/articles/first-post.html'), { ...context, pace: () => Promise.reject(deferred) }),
    ).rejects.toBe(deferred);
    const down = new Error('connection to the store lost');
    await expect(
      scrapePage(rt.ctx, request('/articles/first-post.html'), { ...context, pace: () => Promise.reject(down) }),
    ).rejects.toBe(down);
    expect(server.requests.length).toBe(before);
  });
});
