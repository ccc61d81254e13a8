/**
 * `crawlkit cache vacuum`: a store whose page cache was cleared keeps its file's size (SQLite keeps the room for
 * reuse); the vacuum gives it back and prints the size before and after. A real store file, the CLI's `main()`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

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

it('says so when another process reading the store keeps the rewritten file in its write-ahead log', async () => {
  const store = await createSqliteStore({ dir: join(dir, 'read') });
  for (let i = 0; i < 300; i++) {
    await store.pages.put({ key: `k${i}`, url: `https://example.com/${i}`, cachedAt: i, value: 'x'.repeat(10_000) });
  }
  await store.close();
  const file = join(dir, 'read', 'crawlkit.db');
  // A reader in a transaction, as a `serve` on the store answering a status while the vacuum runs: its snapshot is
  // the file before the vacuum, so the log the vacuum wrote through cannot be folded back and truncated.
  const reader = new DatabaseSync(file);
  try {
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM sqlite_master').get();
    const vacuumed = await runCli(['cache', 'vacuum', '--store', './read'], { cwd: dir });
    expect(vacuumed.code, vacuumed.stderr).toBe(0);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(3_000_000);
    expect(vacuumed.stdout).toMatch(
      /^vacuumed .*crawlkit\.db: [\d.]+ MiB \(\d+ bytes\) before, [\d.]+ MiB \(\d+ bytes\) after, of which [\d.]+ MiB \(\d+ bytes\) is its write-ahead log crawlkit\.db-wal: another process reading the store kept it from being folded back into the file\. It is given back once that process closes the store, or by running the vacuum again while no other process uses it\.\n$/,
    );
  } finally {
    reader.exec('COMMIT');
    reader.close();
  }
  // Nothing else on the store: the vacuum again folds the log back and truncates it.
  const again = await runCli(['cache', 'vacuum', '--store', './read'], { cwd: dir });
  expect(again.stdout).toMatch(/ after\n$/);
  expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
});
