/**
 * Crawl traps end at the default limits (issue 24 §5): an archive whose links nest each page in the last (the URL
 * grows ~40 characters a page) stops at the URL length cap, and a calendar whose relative "next month" links
 * repeat their segments stops at the repetition cap; a job past its store budget ends failed with what it stored.
 * Served by fixtures/routes/traps.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlErrorsResponse, type CrawlResponse, type JobStatusResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { ok } from './helpers-batch.ts';
import { useFixtureEngine } from './helpers/fixture-engine.ts';

/** The documented default of the URL length cap. */
const DEFAULT_MAX_URL_LENGTH = 2048;
const env = useFixtureEngine();

describe('crawl traps', () => {
  it('stop at the URL length cap (endless archive) and at repeating segments (calendar)', async () => {
    // The limit only keeps today's failure short: the traps must end well before it.
    const started = ok<CrawlResponse>(await env.ck.crawl({ url: `${env.server.url}/traps/`, limit: 200 }));
    const done = ok<JobStatusResponse>(await env.ck.waitForJob(started.id));
    expect(done.status).toBe('completed');
    const urls = done.data.map((d) => d.metadata.sourceURL);
    const archive = urls.filter((u) => u.includes('/traps/archive/'));
    const events = urls.filter((u) => u.includes('/traps/events/'));
    expect(Math.max(...urls.map((u) => u.length))).toBeLessThanOrEqual(DEFAULT_MAX_URL_LENGTH);
    // ~40 characters a page: the archive is followed until its URLs reach 2 KB, and not further.
    expect(archive.length).toBeGreaterThan(40);
    expect(archive.length).toBeLessThan(60);
    expect(Math.max(...archive.map((u) => u.length))).toBeGreaterThan(DEFAULT_MAX_URL_LENGTH - 60);
    // events/, then three nested months; a fourth `month` segment is refused.
    expect(events).toHaveLength(4);
    expect(done.total).toBe(urls.length);
    // The status says links were skipped as traps, and why, with the first of each kind.
    expect(done.warning).toContain('Links were skipped as crawl traps, longer than the longest URL');
    expect(done.warning).toMatch(/Links were skipped as crawl traps, a path segment repeated .*\/traps\/events\//);
  }, 120_000);

  it('end failed past the job store budget, with the pages stored until then kept on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-store-budget-'));
    const maxStoreBytes = 40_000;
    try {
      const small = new Crawlkit({ storeDir: dir, engine: 'http', jobs: { maxStoreBytes } });
      const started = ok<CrawlResponse>(await small.crawl({ url: `${env.server.url}/traps/`, limit: 200 }));
      const done = ok<JobStatusResponse>(await small.waitForJob(started.id));
      expect(done.status).toBe('failed');
      const errors = (await small.getCrawlErrors(started.id)) as CrawlErrorsResponse;
      const budget = errors.errors.filter((e) => e.code === 'JOB_STORE_BUDGET_EXCEEDED');
      expect(budget).toHaveLength(1);
      expect(budget[0]!.error).toMatch(/past its budget of 40000 bytes \(`jobs\.maxStoreBytes`\)/);
      expect(budget[0]!.error).toContain('Raise `jobs.maxStoreBytes`');
      await small.close();

      // Reopened: every page stored is there, past the budget by at most the pages that were under way.
      const again = new Crawlkit({ storeDir: dir, engine: 'http' });
      const kept = ok<JobStatusResponse>(await again.getCrawlStatus(started.id));
      expect(kept.status).toBe('failed');
      expect(kept.warning).toMatch(/^The job failed: .*past its budget of 40000 bytes/);
      const bytes = kept.data.reduce((sum, d) => sum + Buffer.byteLength(JSON.stringify(d)), 0);
      expect(bytes).toBeGreaterThan(maxStoreBytes);
      // Cut short (the first test's crawl of the same site stores over 40 archive pages); ended, with none to come.
      expect(kept.data.length).toBeLessThan(40);
      expect(kept.total).toBe(kept.data.length);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
