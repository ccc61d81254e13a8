/**
 * A batch of more browser pages than the browser has (`browser.maxConcurrentPages`): each page's `timeout` counts from
 * the browser page it gets, not from the start of its wait for one (a wait for a shared page, no part of its own, as a
 * wait for its host's slot or the model's). Twenty pages at an 8 s timeout lost 14–17 of them to the line for four
 * browser pages (qa45a), each page's own load fitting its timeout many times.
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

/** Each page answers after this long: seven of them in a line for one browser page take past one timeout. */
const PAGE_MS = 1_000;
const PAGES = 7;
const TIMEOUT_MS = 5_000;

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/slow': (req, res: ServerResponse) => {
        const n = new URL(req.url ?? '/', 'http://x').searchParams.get('n');
        setTimeout(
          () => sendPage(res, `Slow ${n}`, `<p>Page ${n} of the batch, answered after its pause.</p>`),
          PAGE_MS,
        );
      },
    }),
  crawlkit: {
    store: 'memory',
    engine: 'browser',
    browser: { args: ISOLATED_ARGS, maxConcurrentPages: 1 },
  },
});

describe('a batch in line for the browser', () => {
  it('times each page from the browser page it gets, so none fails while it waits its turn', async () => {
    // Chromium starts first (two seconds and more on a busy machine), so that the line is all the first page waits.
    const warm = await env.ck.scrape({ url: `${env.server.url}/slow?n=warm`, maxAge: 0 });
    if (!warm.success) throw new Error(warm.error);
    const urls = Array.from({ length: PAGES }, (_, i) => `${env.server.url}/slow?n=${i}`);
    const started = await env.ck.batchScrape({ urls, timeout: TIMEOUT_MS, maxConcurrency: PAGES, maxAge: 0 });
    if (!started.success) throw new Error(started.error);
    const done = await env.ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    const errors = await env.ck.getBatchScrapeErrors(started.id);
    // Before: the last pages (at least 5 × 1 s in line, then their own second) ended SCRAPE_TIMEOUT.
    expect(errors).toMatchObject({ errors: [] });
    expect(done.data.map((d) => d.metadata.title).sort()).toEqual(urls.map((_, i) => `Slow ${i}`));
  }, 120_000);
});
