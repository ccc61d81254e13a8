/**
 * `vacuum()` of the SQLite store gives the free pages of deleted rows back to the file system: a cache of 400 pages
 * cleared leaves the file its size, and the vacuum shrinks it, answering the sizes before and after. A real file.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-vacuum-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('shrinks a store whose page cache was cleared, saying the size before and after', async () => {
  const store = await createSqliteStore({ dir: join(root, 'store'), hotTier: false });
  try {
    for (let i = 0; i < 400; i++) {
      await store.pages.put({ key: `k${i}`, url: `https://example.com/${i}`, cachedAt: i, value: 'x'.repeat(8_000) });
    }
    await store.pages.clear();
    const { beforeBytes, afterBytes } = await store.vacuum();
    expect(beforeBytes).toBeGreaterThan(3_000_000);
    expect(afterBytes).toBeLessThan(beforeBytes / 5);
    expect(statSync(store.path).size).toBe(afterBytes);
    // the store goes on working
    await store.pages.put({ key: 'after', url: 'https://example.com/after', cachedAt: 1, value: 'kept' });
    expect(await store.pages.get('after')).toMatchObject({ value: 'kept' });
  } finally {
    await store.close();
  }
});
