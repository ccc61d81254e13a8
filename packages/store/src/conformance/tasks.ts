import { describe, expect, it } from 'vitest';
import { createJob, taskInputs, useStores, type StoreFactory } from './harness.js';

export function describeTaskConformance(factory: StoreFactory): void {
  describe('tasks', () => {
    const open = useStores(factory);

    it('adds new keys in order, skips known ones and returns what it added', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(2));
      const added = await store.tasks.add(id, [
        { key: 'k1', url: 'https://example.com/again', depth: 0 },
        { key: 'n1', url: 'https://example.com/n1', depth: 2, meta: '{"source":"x"}' },
        { key: 'n1', url: 'https://example.com/n1-dup', depth: 2 },
        { key: 'n2', url: 'https://example.com/n2', depth: 3 },
      ]);
      expect(added).toEqual([
        { key: 'n1', url: 'https://example.com/n1', depth: 2, meta: '{"source":"x"}' },
        { key: 'n2', url: 'https://example.com/n2', depth: 3 },
      ]);
      const claimed = await store.tasks.claim(id, 10, 0);
      expect(claimed.map((t) => t.seq)).toEqual([1, 2, 3, 4]);
      expect(claimed[2]).toEqual({
        key: 'n1',
        url: 'https://example.com/n1',
        depth: 2,
        meta: '{"source":"x"}',
        seq: 3,
        state: 'active',
        attempts: 1,
        notBefore: 0,
      });
      expect('meta' in claimed[3]!).toBe(false);
    });

    it('stops at limit, counting every state', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(2));
      const [first] = await store.tasks.claim(id, 1, 0);
      await store.tasks.complete(id, { key: first!.key, credits: 1, document: 'd' });
      expect(await store.tasks.add(id, taskInputs(5, 'n'), { limit: 4 })).toHaveLength(2);
      expect(await store.tasks.add(id, taskInputs(5, 'm'), { limit: 4 })).toEqual([]);
      expect(await store.tasks.add(id, taskInputs(5, 'm'), { limit: 5 })).toEqual([taskInputs(1, 'm')[0]]);
      expect(await store.tasks.add(id, taskInputs(1, 'z'), { limit: 0 })).toEqual([]);
      expect(await store.tasks.has(id, 'n1')).toBe(true);
      expect(await store.tasks.has(id, 'n2')).toBe(false);
    });

    it('never exceeds limit nor adds a key twice under concurrent adds', async () => {
      const store = await open();
      const id = await createJob(store);
      const all = taskInputs(40);
      const batches = Array.from({ length: 12 }, (_, i) => all.map((_t, j) => all[(j + i * 7) % all.length]!));
      const added = (await Promise.all(batches.map((b) => store.tasks.add(id, b, { limit: 25 })))).flat();
      expect(added).toHaveLength(25);
      expect(new Set(added.map((t) => t.key)).size).toBe(25);
      const claimed = await store.tasks.claim(id, 100, 0);
      expect(claimed.map((t) => t.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(claimed.map((t) => t.key).sort()).toEqual(added.map((t) => t.key).sort());
    });

    it('rejects adding to an unknown job with STORE_JOB_NOT_FOUND', async () => {
      const store = await open();
      await expect(store.tasks.add('nope', taskInputs(1))).rejects.toMatchObject({ code: 'STORE_JOB_NOT_FOUND' });
    });

    it('knows which keys were added', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(1));
      expect(await store.tasks.has(id, 'k0')).toBe(true);
      expect(await store.tasks.has(id, 'k1')).toBe(false);
      expect(await store.tasks.has('nope', 'k0')).toBe(false);
    });

    it('claims by seq, skips tasks not due yet and counts attempts', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(2));
      await store.tasks.add(id, taskInputs(2, 'later'), { notBefore: 5_000 });
      await store.tasks.add(id, taskInputs(2, 'n'));
      expect((await store.tasks.claim(id, 3, 1_000)).map((t) => t.key)).toEqual(['k0', 'k1', 'n0']);
      expect((await store.tasks.claim(id, 10, 1_000)).map((t) => t.key)).toEqual(['n1']);
      expect(await store.tasks.claim(id, 10, 4_999)).toEqual([]);
      const due = await store.tasks.claim(id, 10, 5_000);
      expect(due.map((t) => [t.key, t.notBefore, t.attempts])).toEqual([
        ['later0', 5_000, 1],
        ['later1', 5_000, 1],
      ]);
      expect(await store.tasks.claim(id, 0, 9_999)).toEqual([]);
      expect(await store.tasks.claim('nope', 1)).toEqual([]);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 6, done: 0, failed: 0 });
    });

    it('hands each task to one caller under concurrent claims', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(50));
      const claims = await Promise.all(Array.from({ length: 20 }, () => store.tasks.claim(id, 3, 0)));
      const keys = claims.flat().map((t) => t.key);
      expect(keys).toHaveLength(50);
      expect(new Set(keys).size).toBe(50);
    });

    it('completes with a document: done, result appended, credits and updatedAt on the job', async () => {
      const store = await open();
      const id = await createJob(store, { creditsUsed: 1, updatedAt: 5 }, taskInputs(3));
      const tasks = await store.tasks.claim(id, 3, 0);
      expect(await store.tasks.complete(id, { key: tasks[1]!.key, credits: 2, document: 'doc-1' })).toEqual({
        duplicate: false,
        resultSeq: 1,
        storedBytes: 5,
      });
      expect(await store.tasks.complete(id, { key: tasks[0]!.key, credits: 3, document: 'doc-0' })).toEqual({
        duplicate: false,
        resultSeq: 2,
        storedBytes: 10,
      });
      const job = (await store.jobs.get(id))!;
      expect(job.creditsUsed).toBe(6);
      expect(job.updatedAt).toBeGreaterThan(5);
      expect(await store.results.list(id, 0, 10)).toEqual([
        { seq: 1, key: 'k1', document: 'doc-1' },
        { seq: 2, key: 'k0', document: 'doc-0' },
      ]);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 1, done: 2, failed: 0 });
    });

    it("counts the UTF-8 bytes of the stored documents in the job's storedBytes, from 0 whatever create is given", async () => {
      const store = await open();
      const id = await createJob(store, { storedBytes: 999 }, taskInputs(3));
      expect((await store.jobs.get(id))!.storedBytes).toBe(0);
      await store.tasks.claim(id, 3, 0);
      await store.tasks.complete(id, { key: 'k0', credits: 1, document: 'h\u00e9\u{1F600}' });
      await store.tasks.complete(id, { key: 'k1', credits: 0, error: { url: 'u', error: 'e' } });
      expect(await store.tasks.complete(id, { key: 'k2', credits: 1, document: 'abc' })).toMatchObject({
        storedBytes: 10,
      });
      const job = (await store.jobs.get(id))!;
      expect(job.storedBytes).toBe(10);
      await store.jobs.update(id, { status: 'completed' });
      expect((await store.jobs.list()).find((j) => j.id === id)?.storedBytes).toBe(10);
    });

    it('completes with only an error as failed, and with both as done plus an error', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(3));
      await store.tasks.claim(id, 3, 0);
      const failed = await store.tasks.complete(id, {
        key: 'k0',
        credits: 0,
        error: { url: 'https://example.com/k0', code: 'SCRAPE_TIMEOUT', error: 'Timed out' },
      });
      expect(failed).toEqual({ duplicate: false, storedBytes: 0 });
      const both = await store.tasks.complete(id, {
        key: 'k1',
        credits: 1,
        document: 'partial',
        error: { url: 'https://example.com/k1', error: 'Blocked' },
      });
      expect(both).toEqual({ duplicate: false, resultSeq: 1, storedBytes: 7 });
      expect(await store.tasks.complete(id, { key: 'k2', credits: 0 })).toEqual({ duplicate: false, storedBytes: 7 });
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 0, done: 2, failed: 1 });
      const errors = await store.results.errors(id);
      expect(errors.map(({ url, code, error }) => ({ url, code, error }))).toEqual([
        { url: 'https://example.com/k0', code: 'SCRAPE_TIMEOUT', error: 'Timed out' },
        { url: 'https://example.com/k1', code: undefined, error: 'Blocked' },
      ]);
      expect('code' in errors[1]!).toBe(false);
    });

    it('is idempotent: a second completion is a duplicate and changes nothing', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(1));
      await store.tasks.claim(id, 1, 0);
      await store.tasks.complete(id, { key: 'k0', credits: 1, document: 'first' });
      const again = await store.tasks.complete(id, {
        key: 'k0',
        credits: 5,
        document: 'second',
        error: { url: 'u', error: 'e' },
      });
      expect(again).toEqual({ duplicate: true });
      expect(await store.results.list(id, 0, 10)).toEqual([{ seq: 1, key: 'k0', document: 'first' }]);
      expect(await store.results.errors(id)).toEqual([]);
      expect((await store.jobs.get(id))!.creditsUsed).toBe(1);
      expect((await store.jobs.get(id))!.storedBytes).toBe(5);
    });

    it('stores exactly one result when the same task is completed concurrently', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(1));
      await store.tasks.claim(id, 1, 0);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.tasks.complete(id, { key: 'k0', credits: 1, document: `d${i}` })),
      );
      expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
      expect(await store.results.count(id)).toBe(1);
      expect((await store.jobs.get(id))!.creditsUsed).toBe(1);
    });

    it('accepts completing a queued task, which is then never claimed', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(2));
      expect(await store.tasks.complete(id, { key: 'k0', credits: 1, document: 'd' })).toEqual({
        duplicate: false,
        resultSeq: 1,
        storedBytes: 1,
      });
      expect((await store.tasks.claim(id, 10, 0)).map((t) => t.key)).toEqual(['k1']);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 1, done: 1, failed: 0 });
    });

    it('rejects completing an unknown task or job', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(1));
      await expect(store.tasks.complete(id, { key: 'nope', credits: 1 })).rejects.toMatchObject({
        code: 'STORE_TASK_NOT_FOUND',
      });
      await expect(store.tasks.complete('nope', { key: 'k0', credits: 1 })).rejects.toMatchObject({
        code: 'STORE_JOB_NOT_FOUND',
      });
      expect((await store.jobs.get(id))!.creditsUsed).toBe(0);
    });

    it('completes a batch in order as one completion each: results, errors, credits, bytes and duplicates', async () => {
      const store = await open();
      const id = await createJob(store, { creditsUsed: 1 }, taskInputs(4));
      await store.tasks.claim(id, 3, 0);
      await store.tasks.complete(id, { key: 'k3', credits: 1, document: 'before' });
      const completions = await store.tasks.completeMany(id, [
        { key: 'k1', credits: 2, document: 'doc-1' },
        { key: 'k0', credits: 0, error: { url: 'https://example.com/k0', code: 'SCRAPE_TIMEOUT', error: 'Timed out' } },
        { key: 'k2', credits: 3, document: 'h\u00e9' },
        { key: 'k1', credits: 5, document: 'again' },
        { key: 'k3', credits: 5, document: 'again' },
      ]);
      expect(completions).toEqual([
        { duplicate: false, resultSeq: 2, storedBytes: 11 },
        { duplicate: false, storedBytes: 11 },
        { duplicate: false, resultSeq: 3, storedBytes: 14 },
        { duplicate: true },
        { duplicate: true },
      ]);
      expect(await store.results.list(id, 0, 10)).toEqual([
        { seq: 1, key: 'k3', document: 'before' },
        { seq: 2, key: 'k1', document: 'doc-1' },
        { seq: 3, key: 'k2', document: 'h\u00e9' },
      ]);
      expect((await store.results.errors(id)).map((e) => e.code)).toEqual(['SCRAPE_TIMEOUT']);
      const job = (await store.jobs.get(id))!;
      expect(job.creditsUsed).toBe(7);
      expect(job.storedBytes).toBe(14);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 0, done: 3, failed: 1 });
      expect(await store.tasks.completeMany(id, [])).toEqual([]);
    });

    it('completes a batch all or nothing: an unknown key or job applies none of it', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(2));
      await store.tasks.claim(id, 2, 0);
      await expect(
        store.tasks.completeMany(id, [
          { key: 'k0', credits: 1, document: 'doc-0' },
          { key: 'nope', credits: 1, document: 'doc' },
        ]),
      ).rejects.toMatchObject({ code: 'STORE_TASK_NOT_FOUND' });
      expect(await store.results.count(id)).toBe(0);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 2, done: 0, failed: 0 });
      expect((await store.jobs.get(id))!.creditsUsed).toBe(0);
      await expect(store.tasks.completeMany('nope', [{ key: 'k0', credits: 1 }])).rejects.toMatchObject({
        code: 'STORE_JOB_NOT_FOUND',
      });
      await expect(store.tasks.completeMany('nope', [])).rejects.toMatchObject({ code: 'STORE_JOB_NOT_FOUND' });
      // The same batch without the unknown key goes through whole.
      expect(await store.tasks.completeMany(id, [{ key: 'k0', credits: 1, document: 'doc-0' }])).toEqual([
        { duplicate: false, resultSeq: 1, storedBytes: 5 },
      ]);
    });

    it('stores each result once when batches with the same tasks complete concurrently', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(6));
      await store.tasks.claim(id, 6, 0);
      const batches = Array.from({ length: 4 }, (_, b) =>
        taskInputs(6).map((t, i) => ({ key: taskInputs(6)[(i + b) % 6]!.key, credits: 1, document: `${t.key}-${b}` })),
      );
      const completions = (await Promise.all(batches.map((batch) => store.tasks.completeMany(id, batch)))).flat();
      expect(completions.filter((c) => !c.duplicate)).toHaveLength(6);
      expect(await store.results.count(id)).toBe(6);
      expect((await store.jobs.get(id))!.creditsUsed).toBe(6);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 0, done: 6, failed: 0 });
    });

    it('releases an active task back to the queue from notBefore, keeping its attempts', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(3));
      await store.tasks.claim(id, 2, 0);
      await store.tasks.release(id, 'k0', 2_000);
      await store.tasks.release(id, 'k2', 2_000);
      await store.tasks.release(id, 'nope');
      expect(await store.tasks.counts(id)).toEqual({ queued: 2, active: 1, done: 0, failed: 0 });
      expect((await store.tasks.claim(id, 5, 1_000)).map((t) => t.key)).toEqual(['k2']);
      const again = await store.tasks.claim(id, 5, 2_000);
      expect(again.map((t) => [t.key, t.attempts, t.notBefore])).toEqual([['k0', 2, 2_000]]);
    });

    it('release with no notBefore makes the task claimable at once', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(1));
      await store.tasks.claim(id, 1, 0);
      await store.tasks.release(id, 'k0');
      expect((await store.tasks.claim(id, 1)).map((t) => t.key)).toEqual(['k0']);
    });

    it('requeues every active task and claims them again in seq order', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(5));
      await store.tasks.claim(id, 4, 0);
      await store.tasks.complete(id, { key: 'k1', credits: 1, document: 'd' });
      expect(await store.tasks.requeueActive(id)).toBe(3);
      expect(await store.tasks.requeueActive(id)).toBe(0);
      expect(await store.tasks.requeueActive('nope')).toBe(0);
      expect(await store.tasks.counts(id)).toEqual({ queued: 4, active: 0, done: 1, failed: 0 });
      expect((await store.tasks.claim(id, 10, 0)).map((t) => [t.key, t.attempts])).toEqual([
        ['k0', 2],
        ['k2', 2],
        ['k3', 2],
        ['k4', 1],
      ]);
    });

    it('drops queued tasks: not claimed nor counted, still known and counted by limit', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(4));
      await store.tasks.claim(id, 1, 0);
      expect(await store.tasks.dropQueued(id)).toBe(3);
      expect(await store.tasks.dropQueued(id)).toBe(0);
      expect(await store.tasks.dropQueued('nope')).toBe(0);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 1, done: 0, failed: 0 });
      expect(await store.tasks.claim(id, 10, 0)).toEqual([]);
      expect(await store.tasks.has(id, 'k3')).toBe(true);
      expect(await store.tasks.add(id, taskInputs(5), { limit: 10 })).toEqual([taskInputs(5)[4]]);
      expect(await store.tasks.add(id, taskInputs(2, 'n'), { limit: 5 })).toEqual([]);
      expect(await store.tasks.complete(id, { key: 'k0', credits: 1, document: 'kept' })).toEqual({
        duplicate: false,
        resultSeq: 1,
        storedBytes: 4,
      });
      expect(await store.tasks.complete(id, { key: 'k2', credits: 1, document: 'late' })).toEqual({
        duplicate: false,
        resultSeq: 2,
        storedBytes: 8,
      });
      expect(await store.tasks.counts(id)).toEqual({ queued: 1, active: 0, done: 2, failed: 0 });
    });

    it('counts zeros for an unknown job', async () => {
      const store = await open();
      expect(await store.tasks.counts('nope')).toEqual({ queued: 0, active: 0, done: 0, failed: 0 });
    });
  });
}
