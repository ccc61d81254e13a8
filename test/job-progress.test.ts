/**
 * The `progress` event of a job (README, Events: "after each page of a job settles"): its counts only move forward,
 * and an event repeats none it already told. Pages settle in parallel (a batch at 8 pages at once, a crawl), so the
 * counts read after each one must not arrive out of order or twice.
 */
import { Crawlkit, type CrawlkitEvents } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, slowRoutes } from './helpers-batch.ts';

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({ routes: slowRoutes().routes });
});

afterAll(async () => {
  await server.close();
});

type Progress = CrawlkitEvents['progress'][0];

/** The job's progress events, as `completed/total`. */
function told(events: Progress[], id: string): string[] {
  return events.filter((e) => e.id === id).map((e) => `${e.completed}/${e.total}`);
}

describe('progress events', () => {
  it('of a batch at 8 pages at once: completed never goes back, no counts are told twice, the last is the end', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const events: Progress[] = [];
    ck.on('progress', (e) => events.push(e));
    try {
      for (let round = 0; round < 3; round++) {
        const urls = Array.from({ length: 40 }, (_, i) => `${server.url}/slow/r${round}p${i}?ms=${i % 3}`);
        const started = ok(await ck.batchScrape({ urls, maxConcurrency: 8 }));
        // The counts are read after the last page settles: told with the job's end or just after it.
        await new Promise<void>((resolve) => {
          const end = (e: Progress) => {
            if (e.id !== started.id || e.completed !== 40 || e.total !== 40) return;
            ck.off('progress', end);
            resolve();
          };
          ck.on('progress', end);
        });
        await ck.waitForJob(started.id);
        const counts = told(events, started.id);
        expect(counts.at(-1)).toBe('40/40');
        expect(new Set(counts).size).toBe(counts.length);
        const completed = counts.map((c) => Number(c.split('/')[0]));
        expect(completed).toEqual(completed.toSorted((a, b) => a - b));
      }
    } finally {
      await ck.close();
    }
  });
});
