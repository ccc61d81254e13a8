/**
 * Another process holding the store's write lock (a `crawlkit cache vacuum`, a second crawlkit's long write) is waited
 * for without holding the event loop: `node:sqlite` is synchronous, and SQLite's own busy timeout (5 s a write) froze
 * a whole `serve` meanwhile. The holder is a real child process on the same file; the loop's delay is measured with
 * `monitorEventLoopDelay`, and bounded loosely (CI runs two suites at once on two cores).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';

import { holdWriteLock } from '../__fixtures__/write-lock-holder.ts';
import type { JobRecord } from '../types.js';
import { createSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'ck-busy-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Half the 2 s the holder keeps the lock here, which a loop held by SQLite's busy wait would be frozen for, and over
 * what a loaded machine delays a timer by (432 ms seen with two suites and two other jobs on two cores).
 */
const LOOP_DELAY_MS = 1_000;

const job = (id: string): JobRecord => ({
  id,
  kind: 'crawl',
  status: 'scraping',
  request: '{}',
  createdAt: 1,
  updatedAt: 1,
  creditsUsed: 0,
});

/** The largest delay of the event loop while `fn` runs, in ms, and what `fn` answered. */
async function loopDelayDuring<T>(fn: () => Promise<T>): Promise<{ maxDelayMs: number; value: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const value = await fn();
    // The sample of a stall that ended just before `fn` did is taken by the histogram's next timer: wait for it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { maxDelayMs: histogram.max / 1e6, value };
  } finally {
    histogram.disable();
  }
}

describe('the SQLite store while another process holds its write lock', () => {
  it('waits for the lock without blocking the event loop, writes once it is let go, and reads meanwhile', async () => {
    const store = await createSqliteStore({ dir: join(root, 'waits') });
    try {
      await store.jobs.create(job('a'), [{ key: 'k1', url: 'https://example.com/1', depth: 0 }]);
      const holder = await holdWriteLock(store.path);
      const started = performance.now();
      const { maxDelayMs, value } = await loopDelayDuring(async () => {
        const writes = Promise.all([
          store.jobs.update('a', { status: 'cancelled' }),
          store.tasks.claim('a', 1),
          store.jobs.update('a', { status: 'completed' }),
          store.pages.put({ key: 'p', url: 'https://example.com/p', cachedAt: 5, value: 'v' }),
        ]);
        // A read is not held up by another process's writer (WAL), nor by this process's writes waiting.
        const readStarted = performance.now();
        const read = await store.jobs.get('a');
        const readMs = performance.now() - readStarted;
        // The page waiting for the lock is answered to its own process.
        const page = await store.pages.get('p');
        setTimeout(() => void holder.release(), 2_000);
        await writes;
        return { read, readMs, page, wroteAfterMs: performance.now() - started };
      });
      expect(value.read?.status).toBe('scraping');
      expect(value.readMs).toBeLessThan(LOOP_DELAY_MS);
      expect(value.page?.value).toBe('v');
      expect(value.wroteAfterMs).toBeGreaterThanOrEqual(1_900);
      expect(maxDelayMs).toBeLessThan(LOOP_DELAY_MS);
      // The writes ran in the order they were called, each whole.
      expect(await store.jobs.get('a')).toMatchObject({ status: 'completed' });
      expect(await store.tasks.counts('a')).toEqual({ queued: 0, active: 1, done: 0, failed: 0 });
      expect(await store.pages.stats()).toEqual({ entries: 1, bytes: 1 });
    } finally {
      await store.close();
    }
  });

  it('fails STORE_BUSY past the busy timeout, the loop still free, says it unwritable meanwhile, writes after', async () => {
    // Longer than LOOP_DELAY_MS: a loop frozen in SQLite's busy wait would be held that long.
    const store = await createSqliteStore({ dir: join(root, 'busy'), busyTimeoutMs: 1_500 });
    try {
      await store.jobs.create(job('a'), []);
      await expect(store.writable!()).resolves.toBeUndefined();
      const holder = await holdWriteLock(store.path);
      const started = performance.now();
      const { maxDelayMs, value } = await loopDelayDuring(async () => {
        const failed = await store.counters!.add('n', 1).then(
          () => undefined,
          (error: unknown) => error,
        );
        const failedAfterMs = performance.now() - started;
        // Past the busy timeout with the lock still held: the store tells it cannot be written.
        const unwritable = await store.writable!().then(
          () => undefined,
          (error: unknown) => error,
        );
        return { failed, failedAfterMs, unwritable };
      });
      expect(value.failed).toMatchObject({ code: 'STORE_BUSY', name: 'StoreBusyError' });
      expect(String(value.failed)).toMatch(/database is locked \(after waiting for the lock for the store's busy/);
      expect(value.failedAfterMs).toBeGreaterThanOrEqual(1_490);
      expect(value.failedAfterMs).toBeLessThan(4_000);
      expect(value.unwritable).toMatchObject({ code: 'STORE_BUSY' });
      expect(String(value.unwritable)).toMatch(/writes have waited \d+ s for another process's write lock/);
      expect(maxDelayMs).toBeLessThan(LOOP_DELAY_MS);
      await holder.release();
      await expect(store.writable!()).resolves.toBeUndefined();
      expect(await store.counters!.add('n', 1)).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('is not called unwritable for a lock another process holds for a moment', async () => {
    const store = await createSqliteStore({ dir: join(root, 'moment'), busyTimeoutMs: 300 });
    try {
      const holder = await holdWriteLock(store.path, 150);
      await expect(store.writable!()).resolves.toBeUndefined();
      await holder.exited;
      await new Promise((resolve) => setTimeout(resolve, 400));
      await expect(store.writable!()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('commits a put still waiting for the lock when the store closes, once the lock is let go', async () => {
    const dir = join(root, 'close');
    const store = await createSqliteStore({ dir });
    const holder = await holdWriteLock(store.path);
    const put = store.pages.put({ key: 'p', url: 'https://example.com/p', cachedAt: 5, value: 'v' });
    setTimeout(() => void holder.release(), 500);
    await store.close();
    await put;
    const again = await createSqliteStore({ dir });
    expect((await again.pages.get('p'))?.value).toBe('v');
    await again.close();
  });
});
