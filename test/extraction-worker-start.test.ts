// Extraction worker threads that cannot load their module (crawlkit's files missing where it runs) fail the page at
// once with SCRAPE_EXTRACTION_FAILED saying so; before, the page was sent to a new thread again and again until its
// timeout, and answered SCRAPE_TIMEOUT blaming busy workers. The same when the files go after a thread has loaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { runBuiltChild } from './helpers/built-child.ts';

let site: Awaited<ReturnType<typeof startRouteSite>>;
beforeAll(async () => {
  ensureBuilt();
  site = await startRouteSite({
    '/'(_req, res) {
      sendPage(res, 'Home', '<p>A page no worker can extract.</p>');
    },
  });
});
afterAll(() => site.close());

it(
  'workers that cannot load fail the page with SCRAPE_EXTRACTION_FAILED, not its timeout',
  { timeout: 60_000 },
  async () => {
    const { code, out, result } = await runBuiltChild<{ code?: string; error?: string; ms: number }>(
      'worker-start-child.ts',
      [`${site.url}/`],
      { imports: ['no-extraction-worker.ts'], killAfterMs: 45_000 },
    );
    expect(result, out).not.toBeNull();
    expect(result!.code, out).toBe('SCRAPE_EXTRACTION_FAILED');
    expect(result!.error).toMatch(/^The extraction worker threads could not start: .*the worker module is missing/);
    // the page's timeout is 20 s: the answer comes at the first failed load, not there
    expect(result!.ms).toBeLessThan(10_000);
    expect(code).toBe(0);
  },
);

it(
  'workers that cannot load after others did (files deleted mid-run) fail the page at once too',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-worker-gone-'));
    process.env.CRAWLKIT_TEST_WORKER_GONE = join(dir, 'gone');
    try {
      const { code, out, result } = await runBuiltChild<{ first: boolean; code?: string; error?: string; ms: number }>(
        'worker-gone-child.ts',
        [`${site.url}/`],
        { imports: ['extraction-worker-gone.ts'], killAfterMs: 45_000 },
      );
      expect(result, out).not.toBeNull();
      expect(result!.first, out).toBe(true);
      expect(result!.code, out).toBe('SCRAPE_EXTRACTION_FAILED');
      expect(result!.error).toMatch(/^The extraction worker threads could not start: .*the worker module is gone/);
      // Before: SCRAPE_TIMEOUT at the page's 20 s, its call sent to one new thread after another.
      expect(result!.ms).toBeLessThan(10_000);
      expect(code).toBe(0);
    } finally {
      delete process.env.CRAWLKIT_TEST_WORKER_GONE;
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
