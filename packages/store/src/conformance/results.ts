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

/** Results, errors and robots-blocked URLs of a job. */
export function describeResultConformance(factory: StoreFactory): void {
  describe('results', () => {
    const open = useStores(factory);

    it('reads results within maxChars, always at least one, in list and since alike', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(40));
      for (let i = 0; i < 40; i++) {
        await store.tasks.complete(id, {
          key: `k${i}`,
          credits: 1,
          document: `document-${String(i).padStart(2, '0')}`,
        });
      }
      // Each document is 11 characters.
      expect((await store.results.list(id, 0, 100, { maxChars: 25 })).map((r) => r.seq)).toEqual([1, 2]);
      expect((await store.results.list(id, 3, 100, { maxChars: 5 })).map((r) => r.seq)).toEqual([4]);
      expect((await store.results.since(id, 30, 100, { maxChars: 1_000 })).map((r) => r.seq)).toEqual(
        Array.from({ length: 10 }, (_, i) => 31 + i),
      );
      expect(await store.results.list(id, 0, 100, { maxChars: 400 })).toHaveLength(36);
      expect(await store.results.list(id, 0, 3, { maxChars: 1_000 })).toHaveLength(3);
      expect(await store.results.list(id, 0, 100)).toHaveLength(40);
    });

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

    it('reads the oldest errors only when asked for some, and counts them', async () => {
      const store = await open();
      const id = await createJob(store);
      for (const url of ['https://a.example', 'https://b.example', 'https://c.example']) {
        await store.results.addError(id, { url, error: 'down' });
      }
      expect((await store.results.errors(id, 1)).map((e) => e.url)).toEqual(['https://a.example']);
      expect((await store.results.errors(id, 2)).map((e) => e.url)).toEqual(['https://a.example', 'https://b.example']);
      expect(await store.results.errors(id, 0)).toEqual([]);
      expect(await store.results.errors(id)).toHaveLength(3);
      expect(await store.results.errorCount(id)).toBe(3);
      expect(await store.results.errorCount('nope')).toBe(0);
      expect(await store.results.errors('nope', 1)).toEqual([]);
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
}
