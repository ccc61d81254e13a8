import { describe, expect, it } from 'vitest';
import { createJob, useStores, type StoreFactory } from './harness.js';

/** The webhook outbox: order per job, due heads, updates. */
export function describeDeliveryConformance(factory: StoreFactory): void {
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
      // A settled delivery's id stays taken (its payload is dropped): a page scraped again queues no second event.
      await expect(
        store.deliveries.enqueue({ id: 'a1', jobId: a, payload: 'p', nextAttemptAt: 0 }),
      ).rejects.toMatchObject({
        code: 'STORE_DELIVERY_EXISTS',
      });
      expect((await store.deliveries.enqueue({ id: 'a3', jobId: a, payload: 'p', nextAttemptAt: 0 })).seq).toBe(3);
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
}
