/**
 * `kill <pid>`, `timeout 5 crawlkit crawl …`, a supervisor: SIGTERM stops a crawl as Ctrl-C does (pages kept, the
 * manifest written, `crawlkit resume <id>` told), with the exit code a shell gives SIGTERM, 143.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { interruptedCrawl } from './helpers/cli-interrupt.ts';
import { CHAIN_LENGTH, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

it('stops a crawl on SIGTERM as on Ctrl-C, resumable, and exits 143', async () => {
  const out = join(site.dir, 'terminated');
  const { id, result } = await interruptedCrawl(site, ['--ndjson', '--out', out], 'SIGTERM');
  // Before: Node's default for SIGTERM, the process gone at once: nothing said on stderr after "started", the
  // manifest left as "scraping" with the pages of its last write.
  expect(result.code, result.stderr).toBe(143);
  expect(result.stderr).toMatch(
    new RegExp(`Interrupted: \\d+ pages? kept in .*\\. Resume with:\\n {2}crawlkit resume ${id}`),
  );
  const kept = result.stdout.trim().split('\n').length;
  expect(kept).toBeLessThan(CHAIN_LENGTH);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
  expect(manifest.status).toBe('interrupted');
  expect(manifest.pages).toHaveLength(kept);

  const resumed = await site.cli(['resume', id, '--out', out, '--quiet'], undefined, { process: true });
  expect(resumed.code, resumed.stderr).toBe(0);
  const after = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { status: string; pages: [] };
  expect(after.status).toBe('completed');
  expect(after.pages).toHaveLength(CHAIN_LENGTH);
}, 120_000);
