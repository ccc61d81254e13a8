/**
 * The programs of `examples/` run as their headers say (`pnpm exec node examples/<name>.ts`, offline on the bundled
 * fixture site and fixture model) and print what they promise: an example that rots is the first thing a new user
 * meets. Each runs as a child of the built packages, in a directory of its own (crawl.ts keeps its store in `./`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let cwd: string;

beforeAll(() => {
  ensureBuilt();
  cwd = mkdtempSync(join(tmpdir(), 'ck-examples-'));
}, 180_000);

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs `examples/<name>.ts` with no arguments; resolves its stdout (a failure rejects with its stderr). */
async function example(name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'examples', `${name}.ts`)], {
    cwd,
    timeout: 60_000,
  });
  return stdout;
}

describe('examples/', () => {
  it('scrape.ts prints the page title, its links count and its markdown', async () => {
    const out = await example('scrape');
    expect(out).toMatch(/^Sharpening a Hand Plane \| Acme Field Notes \(\d+ links\)\n/);
    expect(out).toContain('# Sharpening a Hand Plane');
  });

  it('crawl.ts prints each page as it is stored, then the job completed', async () => {
    const out = await example('crawl');
    expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*: \d+ chars$/m);
    expect(out).toMatch(/^completed: (\d+)\/\1 pages$/m);
  });

  it('batch.ts prints the three pages with their titles and the credits', async () => {
    const out = await example('batch');
    expect(out).toContain('/articles/first-post.html: Sharpening a Hand Plane');
    expect(out).toContain('/products/widget.html: Acme Widget Pro');
    expect(out).toMatch(/^completed, 3 credits$/m);
  });

  it('map.ts prints the URL its search ranks first', async () => {
    expect(await example('map')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs\/getting-started\.html Getting started/);
  });

  it('llm-local.ts answers json from the fixture model, with its tokens', async () => {
    const out = await example('llm-local');
    expect(out).toContain('"title": "Sharpening a Hand Plane"');
    expect(out).toMatch(/tokens: \{ inputTokens: \d+/);
  });
});
