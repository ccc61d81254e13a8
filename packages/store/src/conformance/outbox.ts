import { describe, expect, it } from 'vitest';
import type { Store } from '../types.js';
import { createJob, taskInputs, useStores, type StoreFactory } from './harness.js';

async function jobWithResults(store: Store, n: number): Promise<string> {
  const id = await createJob(store, {}, taskInputs(n));
  for (const task of await store.tasks.claim(id, n, 0)) {
    await store.tasks.complete(id, { key: task.key, credits: 1, document: `doc-${task.key}` });
  }
  return id;
}

export function describeOutboxConformance(factory: StoreFactory): void {
  describe('results', () => {
    const open = useStores(factory);

    it('lists results in completion order with skip and limit', async () => {
      const store = await open();
      const id = await jobWithResults(store, 5);
      expect(await store.results.count(id)).toBe(5);
      expect((await store.results.list(id, 0, 2)).map((r) => r.seq)).toEqual([1, 2]);
      expect(await store.results.list(id, 3, 10)).toEqual([
        { seq: 4, key: 'k3', document: 'doc-k3' },
        { seq: 5, key: 'k4', document: 'doc-k4' },
      ]);
      expect(await store.results.list(id, 5, 10)).toEqual([]);
      expect(await store.results.list(id, 0, 0)).toEqual([]);
      expect(await store.results.list('nope', 0, 10)).toEqual([]);
      expect(await store.results.count('nope')).toBe(0);
    });

    it('streams results after a seq', async () => {
      const store = await open();
      const id = await jobWithResults(store, 4);
      expect((await store.results.since(id, 0, 2)).map((r) => r.seq)).toEqual([1, 2]);
      expect((await store.results.since(id, 2, 10)).map((r) => r.seq)).toEqual([3, 4]);
      expect(await store.results.since(id, 4, 10)).toEqual([]);
    });

    it('records standalone errors with an id and a timestamp', async () => {
      const store = await open();
      const id = await createJob(store);
      const before = Date.now();
      await store.results.addError(id, { url: 'https://hook.example', code: 'WEBHOOK_FAILED', error: 'HTTP 500' });
      await store.results.addError(id, { url: 'https://hook.example', error: 'again' });
      const errors = await store.results.errors(id);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatchObject({ url: 'https://hook.example', code: 'WEBHOOK_FAILED', error: 'HTTP 500' });
      expect(errors[0]!.timestamp).toBeGreaterThanOrEqual(before);
      expect(errors[0]!.id).not.toBe(errors[1]!.id);
      expect(errors[1]!.error).toBe('again');
      await expect(store.results.addError('nope', { url: 'u', error: 'e' })).rejects.toMatchObject({
        code: 'STORE_JOB_NOT_FOUND',
      });
    });

    it('records robots-blocked URLs once each, in order', async () => {
      const store = await open();
      const id = await createJob(store);
      await store.results.addRobotsBlocked(id, 'https://example.com/b');
      await store.results.addRobotsBlocked(id, 'https://example.com/a');
      await store.results.addRobotsBlocked(id, 'https://example.com/b');
      expect(await store.results.robotsBlocked(id)).toEqual(['https://example.com/b', 'https://example.com/a']);
      expect(await store.results.robotsBlocked('nope')).toEqual([]);
      await expect(store.results.addRobotsBlocked('nope', 'u')).rejects.toMatchObject({
        code: 'STORE_JOB_NOT_FOUND',
      });
    });
  });

  describe('deliveries', () => {
    const open = useStores(factory);

    it('enqueues with a per-job seq, pending and no attempts', async () => {
      const store = await open();
      const a = await createJob(store);
      const b = await createJob(store);
      expect(await store.deliveries.enqueue({ id: 'a1', jobId: a, payload: 'p1', nextAttemptAt: 10 })).toEqual({
        id: 'a1',
        jobId: a,
        seq: 1,
        payload: 'p1',
        state: 'pending',
        attempts: 0,
        nextAttemptAt: 10,
      });
      expect((await store.deliveries.enqueue({ id: 'a2', jobId: a, payload: 'p2', nextAttemptAt: 10 })).seq).toBe(2);
      expect((await store.deliveries.enqueue({ id: 'b1', jobId: b, payload: 'p', nextAttemptAt: 10 })).seq).toBe(1);
      expect((await store.deliveries.pending(a)).map((d) => d.id)).toEqual(['a1', 'a2']);
      expect((await store.deliveries.pending()).map((d) => d.id)).toEqual(['a1', 'a2', 'b1']);
      await expect(
        store.deliveries.enqueue({ id: 'x', jobId: 'nope', payload: 'p', nextAttemptAt: 0 }),
      ).rejects.toMatchObject({ code: 'STORE_JOB_NOT_FOUND' });
      await expect(
        store.deliveries.enqueue({ id: 'a1', jobId: b, payload: 'again', nextAttemptAt: 0 }),
      ).rejects.toMatchObject({ code: 'STORE_DELIVERY_EXISTS' });
      expect((await store.deliveries.pending(b)).map((d) => d.id)).toEqual(['b1']);
    });

    it('hands out only the head of each job, once due, up to limit', async () => {
      const store = await open();
      const a = await createJob(store);
      const b = await createJob(store);
      const c = await createJob(store);
      await store.deliveries.enqueue({ id: 'a1', jobId: a, payload: 'p', nextAttemptAt: 100 });
      await store.deliveries.enqueue({ id: 'a2', jobId: a, payload: 'p', nextAttemptAt: 0 });
      await store.deliveries.enqueue({ id: 'b1', jobId: b, payload: 'p', nextAttemptAt: 50 });
      await store.deliveries.enqueue({ id: 'c1', jobId: c, payload: 'p', nextAttemptAt: 500 });
      expect((await store.deliveries.due(99, 10)).map((d) => d.id)).toEqual(['b1']);
      expect((await store.deliveries.due(100, 10)).map((d) => d.id).sort()).toEqual(['a1', 'b1']);
      expect(await store.deliveries.due(1_000, 2)).toHaveLength(2);
      await store.deliveries.update('a1', { state: 'delivered', attempts: 1 });
      expect((await store.deliveries.due(100, 10)).map((d) => d.id).sort()).toEqual(['a2', 'b1']);
      await store.deliveries.update('a2', { state: 'failed', attempts: 4, lastError: 'HTTP 500' });
      await store.deliveries.update('b1', { state: 'delivered' });
      expect((await store.deliveries.due(100, 10)).map((d) => d.id)).toEqual([]);
      expect((await store.deliveries.pending()).map((d) => d.id)).toEqual(['c1']);
    });

    it('updates attempts, next attempt and last error, and clears the last error', async () => {
      const store = await open();
      const a = await createJob(store);
      await store.deliveries.enqueue({ id: 'a1', jobId: a, payload: 'p', nextAttemptAt: 0, lastError: 'old' });
      await store.deliveries.update('a1', { attempts: 2, nextAttemptAt: 60_000, lastError: 'timeout' });
      expect(await store.deliveries.due(59_999, 10)).toEqual([]);
      const [due] = await store.deliveries.due(60_000, 10);
      expect(due).toMatchObject({
        id: 'a1',
        attempts: 2,
        nextAttemptAt: 60_000,
        lastError: 'timeout',
        state: 'pending',
      });
      await store.deliveries.update('a1', { lastError: undefined });
      expect('lastError' in (await store.deliveries.pending(a))[0]!).toBe(false);
      await store.deliveries.update('nope', { state: 'delivered' });
    });
  });

  describe('history', () => {
    const open = useStores(factory);

    it('returns the latest entry per url and tag', async () => {
      const store = await open();
      const url = 'https://example.com/';
      expect(await store.history.latest(url, '')).toBeUndefined();
      await store.history.append({ url, tag: '', scrapedAt: 2_000, value: 'second' });
      await store.history.append({ url, tag: '', scrapedAt: 1_000, value: 'first' });
      await store.history.append({ url, tag: 'prod', scrapedAt: 500, value: 'tagged' });
      expect(await store.history.latest(url, '')).toEqual({ url, tag: '', scrapedAt: 2_000, value: 'second' });
      expect((await store.history.latest(url, 'prod'))!.value).toBe('tagged');
      expect(await store.history.latest('https://example.com/other', '')).toBeUndefined();
      await store.history.append({ url, tag: '', scrapedAt: 2_000, value: 'second again' });
      expect((await store.history.latest(url, ''))!.value).toBe('second again');
    });

    it('keeps a bounded history per url and tag', async () => {
      const store = await open({ maxHistoryPerUrl: 2 });
      const url = 'https://example.com/';
      for (let i = 1; i <= 5; i++) await store.history.append({ url, tag: '', scrapedAt: i, value: `v${i}` });
      await store.history.append({ url, tag: 'other', scrapedAt: 1, value: 'o1' });
      expect((await store.history.latest(url, ''))!.value).toBe('v5');
      expect((await store.history.latest(url, 'other'))!.value).toBe('o1');
    });
  });

  describe('lifecycle', () => {
    const open = useStores(factory);

    it('closes idempotently, then rejects every call with STORE_CLOSED', async () => {
      const store = await open();
      const id = await createJob(store);
      await store.close();
      await store.close();
      const calls: Promise<unknown>[] = [
        store.pages.get('a'),
        store.pages.put({ key: 'a', url: 'u', cachedAt: 0, value: 'v' }),
        store.pages.stats(),
        store.jobs.get(id),
        store.jobs.list(),
        store.tasks.claim(id, 1),
        store.tasks.complete(id, { key: 'k', credits: 0 }),
        store.results.list(id, 0, 1),
        store.deliveries.due(0, 1),
        store.history.latest('u', ''),
      ];
      for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });

    it('names its kind', async () => {
      const store = await open();
      expect(typeof store.kind).toBe('string');
      expect(store.kind.length).toBeGreaterThan(0);
      expect(typeof store.ephemeral).toBe('boolean');
    });
  });
}
