// Extraction worker threads that cannot load their module (crawlkit's files missing where it runs) fail the page at
// once with SCRAPE_EXTRACTION_FAILED saying so; before, the page was sent to a new thread again and again until its
// timeout, and answered SCRAPE_TIMEOUT blaming busy workers.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { sendPage, startRouteSite } from './helpers/route-site.ts';

const helpers = fileURLToPath(new URL('./helpers/', import.meta.url));

let site: Awaited<ReturnType<typeof startRouteSite>>;
beforeAll(async () => {
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
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(helpers, 'source-hooks.ts'),
        '--import',
        join(helpers, 'no-extraction-worker.ts'),
        join(helpers, 'worker-start-child.ts'),
        `${site.url}/`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    const result = JSON.parse(/^result (.*)$/m.exec(out)?.[1] ?? 'null') as {
      code?: string;
      error?: string;
      ms: number;
    } | null;
    expect(result, out).not.toBeNull();
    expect(result!.code, out).toBe('SCRAPE_EXTRACTION_FAILED');
    expect(result!.error).toMatch(/^The extraction worker threads could not start: .*the worker module is missing/);
    // the page's timeout is 20 s: the answer comes at the first failed load, not there
    expect(result!.ms).toBeLessThan(10_000);
    expect(code).toBe(0);
  },
);
