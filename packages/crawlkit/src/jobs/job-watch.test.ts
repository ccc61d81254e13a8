import { setImmediate as nextTurn } from 'node:timers/promises';

import { createMemoryStore, type JobRecord } from '@crawlkit/store';
import { describe, expect, it } from 'vitest';

import { JobStores } from './job-stores.js';
import { JobSignals } from './job-watch.js';

/** Whether `promise` has settled after a turn of the event loop. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await nextTurn();
  return done;
}

describe('JobSignals', () => {
  it("wakes an end waiter at the job's end only, and a change waiter at each change and at the end", async () => {
    const signals = new JobSignals();
    const end = signals.next('job', undefined, 'end');
    const change = signals.next('job');
    signals.signal('job');
    expect(await settled(change)).toBe(true);
    expect(await settled(end)).toBe(false);
    signals.signal('other');
    expect(await settled(end)).toBe(false);
    const nextChange = signals.next('job');
    signals.ended('job');
    expect(await settled(end)).toBe(true);
    expect(await settled(nextChange)).toBe(true);
  });

  it('wakes every waiter when the engine closes, and one whose signal aborts; a wait after it throws', async () => {
    const signals = new JobSignals();
    const aborted = new AbortController();
    const waiting = signals.next('a', aborted.signal, 'end');
    aborted.abort();
    expect(await settled(waiting)).toBe(true);
    const both = [signals.next('a', undefined, 'end'), signals.next('b')];
    signals.close();
    expect(await settled(Promise.all(both).then(() => undefined))).toBe(true);
    // The waiters woken read what their jobs stored; their next wait is the end of it.
    await expect(signals.next('a', undefined, 'end')).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await expect(signals.next('b', undefined, 'change', 3)).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});

describe('JobSignals reading the statuses of jobs run elsewhere', () => {
  /** Jobs `ids`, running, in a memory store; `reads` lists the ids of each statuses read, as the poll asked them. */
  async function setUp(ids: string[]) {
    const store = createMemoryStore();
    const now = Date.now();
    for (const id of ids) {
      const job: JobRecord = {
        id,
        kind: 'crawl',
        status: 'scraping',
        request: '{}',
        createdAt: now,
        updatedAt: now,
        creditsUsed: 0,
      };
      // Two pages each, for the change waiters' cases.
      await store.jobs.create(job, [
        { key: 'p1', url: `https://example.com/${id}/1`, depth: 0 },
        { key: 'p2', url: `https://example.com/${id}/2`, depth: 0 },
      ]);
    }
    const stores = new JobStores(store, store, 60_000);
    const reads: string[][] = [];
    let fail = false;
    const signals = new JobSignals(async (asked) => {
      reads.push([...asked].sort());
      if (fail) throw new Error('store down');
      return stores.running(asked);
    });
    return { store, signals, reads, failNext: () => (fail = true) };
  }

  it('wakes the end waiter of a job another process ended, the statuses of all read in one call a second', async () => {
    const { store, signals, reads } = await setUp(['a', 'b', 'c']);
    const a = signals.next('a', undefined, 'end');
    const b = signals.next('b', undefined, 'end');
    const alsoB = signals.next('b', undefined, 'end');
    const c = signals.next('c', undefined, 'end');
    await store.jobs.update('b', { status: 'completed' });
    await Promise.all([b, alsoB]);
    expect(reads).toEqual([['a', 'b', 'c']]);
    expect(await settled(a)).toBe(false);
    await store.jobs.update('a', { expiresAt: Date.now() - 1 });
    await store.jobs.delete('c');
    // An expired job and a deleted one have ended too.
    await Promise.all([a, c]);
    expect(reads).toEqual([
      ['a', 'b', 'c'],
      ['a', 'c'],
    ]);
  });

  it('reads nothing once no one waits, and wakes every waiter when the read fails', async () => {
    const { signals, reads, failNext } = await setUp(['a', 'b']);
    const stop = new AbortController();
    await Promise.all([signals.next('a', stop.signal, 'end'), Promise.resolve(stop.abort())]);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(reads).toEqual([]);
    failNext();
    // Each wakes to read its job again, and meets the failure there.
    await Promise.all([signals.next('a', undefined, 'end'), signals.next('b', undefined, 'end')]);
    expect(reads).toEqual([['a', 'b']]);
  });

  it('wakes a change waiter when a result past the last it read is stored, in the same read as the end waiters', async () => {
    const { store, signals, reads } = await setUp(['a', 'b']);
    await store.tasks.claim('a', 2, 0);
    const end = signals.next('b', undefined, 'end');
    const change = signals.next('a', undefined, 'change', 0);
    // A page that failed stores no result: the waiter is not woken by it.
    await store.tasks.complete('a', { key: 'p1', credits: 0, error: { url: 'u', error: 'boom' } });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(reads).toEqual([['a', 'b']]);
    expect(await settled(change)).toBe(false);
    await store.tasks.complete('a', { key: 'p2', credits: 1, document: '{}' });
    await change;
    expect(reads.length).toBe(2);
    expect(await settled(end)).toBe(false);
    // A waiter behind the latest result wakes at the next read; one at it waits on.
    const behind = signals.next('a', undefined, 'change', 0);
    const atLatest = signals.next('a', undefined, 'change', 1);
    await behind;
    expect(await settled(atLatest)).toBe(false);
    await store.jobs.update('a', { status: 'completed' });
    await atLatest;
    await store.jobs.update('b', { status: 'cancelled' });
    await end;
  });

  it('wakes the change waiters of a store that does not say how far results go at each read', async () => {
    const store = createMemoryStore();
    const now = Date.now();
    await store.jobs.create(
      { id: 'a', kind: 'crawl', status: 'scraping', request: '{}', createdAt: now, updatedAt: now, creditsUsed: 0 },
      [],
    );
    // As a third-party driver without `jobs.statuses`: each record is read.
    const jobs = Object.create(store.jobs, { statuses: { value: undefined } }) as typeof store.jobs;
    const stores = new JobStores({ ...store, jobs }, { ...store, jobs }, 60_000);
    let reads = 0;
    const signals = new JobSignals((ids) => (reads++, stores.running(ids)));
    const started = Date.now();
    await signals.next('a', undefined, 'change', 0);
    expect(reads).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
