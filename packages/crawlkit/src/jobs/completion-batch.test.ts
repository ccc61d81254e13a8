import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore, type Store } from '@crawlkit/store';
import { afterEach, describe, expect, it } from 'vitest';

import { CompletionBatch } from './completion-batch.js';

const dirs: string[] = [];
const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A SQLite store on disk with jobs (`job`, and the others named) of `n` claimed tasks `k0`… each, and its
 * `completeMany` calls (job and size).
 */
async function claimedJob(
  n: number,
  others: string[] = [],
): Promise<{ store: Store; batches: number[]; jobs: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'ck-completions-'));
  dirs.push(dir);
  const store = await createSqliteStore({ dir });
  stores.push(store);
  const now = Date.now();
  const tasks = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, url: `https://example.com/${i}`, depth: 1 }));
  for (const id of ['job', ...others]) {
    await store.jobs.create(
      { id, kind: 'crawl', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
      tasks,
    );
    await store.tasks.claim(id, n);
  }
  const batches: number[] = [];
  const jobs: string[] = [];
  const completeMany = store.tasks.completeMany.bind(store.tasks);
  store.tasks.completeMany = (jobId, outcomes) => {
    batches.push(outcomes.length);
    jobs.push(jobId);
    return completeMany(jobId, outcomes);
  };
  return { store, batches, jobs };
}

describe('CompletionBatch', () => {
  it('completes the tasks settled in one turn in one transaction, each caller with its own completion', async () => {
    const { store, batches } = await claimedJob(5);
    const completions = new CompletionBatch(store);
    const settled = await Promise.all([
      completions.complete('job', { key: 'k0', credits: 1, document: 'a' }),
      completions.complete('job', { key: 'k1', credits: 1, error: { url: 'u', error: 'failed' } }),
      completions.complete('job', { key: 'k2', credits: 1, document: 'bb' }),
    ]);
    expect(settled).toEqual([
      { duplicate: false, resultSeq: 1, storedBytes: 1 },
      { duplicate: false, storedBytes: 1 },
      { duplicate: false, resultSeq: 2, storedBytes: 3 },
    ]);
    // A later turn is a batch of its own, and a task completed again is a duplicate.
    const later = await Promise.all([
      completions.complete('job', { key: 'k3', credits: 1, document: 'c' }),
      completions.complete('job', { key: 'k0', credits: 1, document: 'again' }),
    ]);
    expect(later).toEqual([{ duplicate: false, resultSeq: 3, storedBytes: 4 }, { duplicate: true }]);
    expect(batches).toEqual([3, 2]);
    expect(await store.tasks.counts('job')).toEqual({ queued: 0, active: 1, done: 3, failed: 1 });
  });

  it('keeps the jobs apart: the completions of two jobs in one turn are one transaction per job', async () => {
    const { store, batches, jobs } = await claimedJob(2, ['other']);
    const completions = new CompletionBatch(store);
    const settled = await Promise.all([
      completions.complete('job', { key: 'k0', credits: 1, document: 'a' }),
      completions.complete('other', { key: 'k0', credits: 1, document: 'bb' }),
      completions.complete('job', { key: 'k1', credits: 1, document: 'c' }),
      completions.complete('other', { key: 'k1', credits: 1, document: 'd' }),
    ]);
    expect(settled).toEqual([
      { duplicate: false, resultSeq: 1, storedBytes: 1 },
      { duplicate: false, resultSeq: 1, storedBytes: 2 },
      { duplicate: false, resultSeq: 2, storedBytes: 2 },
      { duplicate: false, resultSeq: 2, storedBytes: 3 },
    ]);
    expect(batches).toEqual([2, 2]);
    expect(jobs).toEqual(['job', 'other']);
    expect((await store.results.list('other', 0, 10)).map((r) => r.document)).toEqual(['bb', 'd']);
  });

  it('answers each task alone when the store refuses the batch: one unknown key does not hold the others', async () => {
    const { store } = await claimedJob(3);
    const completions = new CompletionBatch(store);
    const settled = await Promise.allSettled([
      completions.complete('job', { key: 'k0', credits: 1, document: 'a' }),
      completions.complete('job', { key: 'gone', credits: 1, document: 'x' }),
      completions.complete('job', { key: 'k1', credits: 1, document: 'b' }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1]).toMatchObject({ reason: { code: 'STORE_TASK_NOT_FOUND' } });
    expect((await store.results.list('job', 0, 10)).map((r) => r.key)).toEqual(['k0', 'k1']);
    expect((await store.jobs.get('job'))!.creditsUsed).toBe(2);
  });
});
