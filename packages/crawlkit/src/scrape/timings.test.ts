import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import { describe, expect, it } from 'vitest';

import { StageTimings, type ScrapeTimings } from './timings.js';

/** What one `report` publishes on the timings channel. */
function reported(timings: StageTimings): ScrapeTimings {
  const seen: ScrapeTimings[] = [];
  const listener = (message: unknown) => seen.push(message as ScrapeTimings);
  subscribe('crawlkit:scrape:timings', listener);
  try {
    timings.report('http://user:secret@127.0.0.1/page', 'success');
  } finally {
    unsubscribe('crawlkit:scrape:timings', listener);
  }
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('StageTimings', () => {
  it("publishes the extraction's split, the calls of one scrape added up", () => {
    const timings = new StageTimings();
    timings.record('fetch', 4);
    timings.recordExtraction({ waitMs: 0.5, runMs: 3, cpuMs: 2, replyMs: 0.25 });
    timings.recordExtraction({ waitMs: 0.5, runMs: 10, cpuMs: 8, replyMs: 0.75 });
    timings.record('extract', 15);
    const published = reported(timings);
    expect(published.url).toBe('http://127.0.0.1/page');
    expect(published.stages).toEqual([
      { name: 'fetch', ms: 4 },
      { name: 'extract', ms: 15 },
    ]);
    expect(published.extraction).toEqual({ waitMs: 1, runMs: 13, cpuMs: 10, replyMs: 1 });
  });

  it('publishes no split for a scrape that called no worker (a cache hit, a failed fetch)', () => {
    const timings = new StageTimings();
    timings.record('cache-lookup', 0.2);
    expect(reported(timings)).not.toHaveProperty('extraction');
  });
});
