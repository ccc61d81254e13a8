/**
 * `crawlkit cache vacuum`: a store whose page cache was cleared keeps its file's size (SQLite keeps the room for
 * reuse); the vacuum gives it back and prints the size before and after. A real store file, the CLI's `main()`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { afterAll, expect, it } from 'vitest';

import { runCli } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ck-cache-vacuum-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('shrinks the store file after cache clear and prints its size before and after', async () => {
  const store = await createSqliteStore({ dir: join(dir, 'store') });
  for (let i = 0; i < 300; i++) {
    await store.pages.put({ key: `k${i}`, url: `https://example.com/${i}`, cachedAt: i, value: 'x'.repeat(10_000) });
  }
  await store.close();
  const file = join(dir, 'store', 'crawlkit.db');
  expect((await runCli(['cache', 'clear', '--store', './store'], { cwd: dir })).code).toBe(0);
  const cleared = statSync(file).size;
  expect(cleared).toBeGreaterThan(3_000_000);
  const vacuumed = await runCli(['cache', 'vacuum', '--store', './store'], { cwd: dir });
  expect(vacuumed.code).toBe(0);
  expect(vacuumed.stdout).toMatch(/^vacuumed .*crawlkit\.db: [\d.]+ MiB \(\d+ bytes\) before, \d+ bytes after\n$/);
  expect(statSync(file).size).toBeLessThan(cleared / 5);
  const missing = await runCli(['cache', 'vacuum', '--store', './none'], { cwd: dir });
  expect([missing.code, missing.stdout]).toEqual([0, 'vacuumed nothing: there is no store at ./none\n']);
});
