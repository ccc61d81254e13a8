import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-locks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Another process asks for the database file to itself, answered at once: `busy` while a connection of this
 * process holds its shared lock (every open connection in WAL mode does), `exclusive` once none does. The last
 * connection to close takes that lock to remove the log: one that wrongly gets it removes the log under the others.
 */
function otherTakesFile(path: string): string {
  return spawnSync(
    process.execPath,
    [
      '-e',
      `const db = new (require('node:sqlite').DatabaseSync)(process.argv[1]);
      db.exec('PRAGMA busy_timeout = 0');
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      try { db.exec('BEGIN EXCLUSIVE'); db.exec('ROLLBACK'); console.log('exclusive'); }
      catch (e) { console.log(/locked|busy/i.test(e.message) ? 'busy' : e.message); }`,
      path,
    ],
    { encoding: 'utf8' },
  ).stdout.trim();
}

describe('the database file locks of a process', () => {
  it("keeps this process's lock on the file when a second store of the process opens the same file", async () => {
    const dir = join(root, 'two-stores');
    const first = await createSqliteStore({ dir, hotTier: false });
    await first.pages.put({ key: 'a', url: 'https://example.com/a', cachedAt: 1, value: 'a' });
    expect(otherTakesFile(first.path)).toBe('busy');
    // Opening a store descriptor by descriptor: closing one of the file's descriptors drops every lock the process
    // holds on the file, the first store's connection's too.
    const second = await createSqliteStore({ dir, hotTier: false });
    expect(otherTakesFile(first.path)).toBe('busy');
    await second.close();
    expect(otherTakesFile(first.path)).toBe('busy');
    await first.pages.put({ key: 'b', url: 'https://example.com/b', cachedAt: 2, value: 'b' });
    await first.close();
    expect(otherTakesFile(first.path)).toBe('exclusive');
    const again = await createSqliteStore({ dir, hotTier: false });
    expect((await again.pages.get('b'))?.value).toBe('b');
    await again.close();
  });
});
