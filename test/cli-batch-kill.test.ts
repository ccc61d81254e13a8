/**
 * A batch script's `crawlkit batch urls.txt --ndjson >> pages.ndjson` killed with `kill -9` half-way, then
 * `crawlkit resume <id> --ndjson >> pages.ndjson`: the file ends with every page, none printed twice. The engine
 * stores pages faster than stdout takes them, so the killed command leaves pages stored that it never printed; the
 * resume prints from the last page the command printed, not from the stored count.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Document } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { jobIdOf } from './helpers/cli-site.ts';

const PAGES = 200;
/** Lines the first run prints before it is killed. */
const KILL_AT = 40;

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startFixtureServer({
    routes: {
      '/list/*': (_req, res, { url }) => {
        const n = url.pathname.split('/').pop()!;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Item ${n}</title></head><body><main><h1>Item ${n}</h1>` +
            `<p>${`The description of item ${n} in the list of a nightly batch. `.repeat(60)}</p></main></body></html>`,
        );
      },
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'ck-batch-kill-'));
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const urlsOf = (ndjson: string): string[] =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as Document).metadata.sourceURL);

describe('a batch killed with kill -9, then resumed', { timeout: 120_000 }, () => {
  it('--ndjson appended after the killed run has every page, once', async () => {
    const urls = Array.from({ length: PAGES }, (_, n) => `${server.url}/list/${n}`);
    writeFileSync(join(dir, 'urls.txt'), urls.join('\n'));
    const store = join(dir, 'store');
    const child = startCli(['batch', 'urls.txt', '--ndjson', '--max-age', '0', '--store', store], { cwd: dir });
    let lines = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      lines += chunk.toString().split('\n').length - 1;
      if (lines >= KILL_AT) child.kill('SIGKILL');
    });
    const first = await child.result;
    expect(first.code, first.stderr).toBeNull();
    // Only whole lines: the kill came after a line's write, and a page's line is one write.
    const printed = urlsOf(first.stdout.slice(0, first.stdout.lastIndexOf('\n') + 1));
    expect(printed.length).toBeGreaterThanOrEqual(KILL_AT);
    expect(printed.length).toBeLessThan(PAGES);

    const resumed = await runCli(['resume', jobIdOf(first.stderr), '--ndjson', '--store', store], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const all = [...printed, ...urlsOf(resumed.stdout)];
    expect(new Set(all).size).toBe(PAGES);
    // A kill between a page's write and its mark prints that page again: at most one.
    expect(all.length - PAGES).toBeLessThanOrEqual(1);
  });
});
