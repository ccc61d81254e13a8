import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { NEW_FILE_PAGE_SIZE } from './page-size.js';
import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-sqlite-page-size-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pageSizeOf = (path: string) => {
  const raw = new DatabaseSync(path, { readOnly: true });
  try {
    return (raw.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
  } finally {
    raw.close();
  }
};

/** 300 KB of page body, about the bench pages' mean. */
const body = new Uint8Array(300_000).fill(60);
const page = (i: number) => ({ key: `k${i}`, url: `https://example.com/${i}`, cachedAt: i + 1, value: '{}', body });

/** Puts `count` pages one at a time; answers the largest the WAL file grew meanwhile, in bytes. */
async function largestWal(store: Awaited<ReturnType<typeof createSqliteStore>>, count: number): Promise<number> {
  let largest = 0;
  for (let i = 0; i < count; i++) {
    await store.pages.put(page(i));
    largest = Math.max(largest, statSync(`${store.path}-wal`).size);
  }
  return largest;
}

// The size SQLite checkpoints at on the committing thread (the checkpointer's thread checkpoints at the same size,
// later by its lag: wal-checkpointer.test.ts).
const options = { walCheckpointer: false };

describe('the store file page size', () => {
  it('makes a new file with 8 KiB pages and keeps its WAL near 4 MB, checkpointed as with 4 KiB pages', async () => {
    const store = await createSqliteStore({ dir: join(root, 'new'), ...options });
    const largest = await largestWal(store, 40);
    // 12 MB written: a WAL of 1000 pages of 8 KiB would have grown to 8 MB before its first checkpoint.
    expect(largest).toBeLessThan(5_000_000);
    await store.close();
    expect(NEW_FILE_PAGE_SIZE).toBe(8192);
    expect(pageSizeOf(store.path)).toBe(NEW_FILE_PAGE_SIZE);
  });

  it('leaves a file made with 4 KiB pages as it is', async () => {
    const dir = join(root, 'old');
    const first = await createSqliteStore({ dir });
    await first.close();
    // The same schema at SQLite's default page size, as every store file made before this one.
    const raw = new DatabaseSync(first.path);
    raw.exec('PRAGMA journal_mode = DELETE');
    raw.exec('PRAGMA page_size = 4096');
    raw.exec('VACUUM');
    raw.exec('PRAGMA journal_mode = WAL');
    raw.close();
    expect(pageSizeOf(first.path)).toBe(4096);
    const store = await createSqliteStore({ dir, ...options });
    const largest = await largestWal(store, 20);
    expect(largest).toBeLessThan(5_000_000);
    await store.close();
    expect(pageSizeOf(first.path)).toBe(4096);
  });
});
