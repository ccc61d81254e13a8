/**
 * Search and the jobs whose results have expired: a crawl's results leave the search index as soon as the job
 * expires, as they leave every other read, not at the next expiry sweep (every 10 minutes by default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type LocalResult } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { textPage } from './helpers/text-page.ts';

let site: FixtureServer;
let dir: string;
let ck: Crawlkit | undefined;

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      '/narwhal': textPage('Narwhal', 'The narwhal tusk is a long spiral tooth that grows through the upper lip.'),
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'ck-search-expired-'));
});

afterAll(async () => {
  await ck?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the clock has passed `time`. */
async function after(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, time - Date.now() + 1));
}

describe('search and expired jobs', () => {
  it("drops an expired crawl's results at once, not at the next sweep", { timeout: 30_000 }, async () => {
    // The crawl's engine keeps results 3 s; storeInCache false, so only the job's results hold the page's text.
    const short = new Crawlkit({ storeDir: dir, engine: 'http', jobResultTtlMs: 3_000 });
    const started = ok(
      await short.crawl({ url: `${site.url}/narwhal`, limit: 1, scrapeOptions: { storeInCache: false } }),
    );
    const done = ok(await short.waitForJob(started.id));
    await short.close();
    // An engine that sweeps every 10 minutes, opened (and its first sweep run) before the job expires.
    ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    const hits = async () => (ok(await ck!.search({ query: 'narwhal' })).data.web ?? []) as LocalResult[];
    expect((await hits()).map((r) => r.jobId)).toEqual([started.id]);

    // expiresAt is given to the second, rounded down.
    await after(Date.parse(done.expiresAt) + 1_000);
    expect(await hits()).toEqual([]);
    expect(await ck.getCrawlStatus(started.id)).toMatchObject({ success: false, code: 'JOB_NOT_FOUND' });
  });
});
