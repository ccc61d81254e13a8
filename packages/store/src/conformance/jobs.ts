import { describe, expect, it } from 'vitest';
import { createJob, jobRecord, taskInputs, useStores, type StoreFactory } from './harness.js';

export function describeJobConformance(factory: StoreFactory): void {
  describe('jobs', () => {
    const open = useStores(factory);

    it('creates a job and reads it back, optional fields absent when unset', async () => {
      const store = await open();
      const record = jobRecord({ kind: 'batch', creditsUsed: 3 });
      await store.jobs.create(record, []);
      const got = await store.jobs.get(record.id);
      expect(got).toEqual(record);
      expect(Object.keys(got!)).not.toContain('error');
      expect(Object.keys(got!)).not.toContain('completedAt');
      expect(await store.jobs.get('nope')).toBeUndefined();
    });

    it('keeps every field of a full record', async () => {
      const store = await open();
      const record = jobRecord({ status: 'failed', completedAt: 5, expiresAt: 6, error: 'boom', creditsUsed: 1.5 });
      await store.jobs.create(record, []);
      expect(await store.jobs.get(record.id)).toEqual(record);
    });

    it('refuses an existing id with STORE_JOB_EXISTS and changes nothing', async () => {
      const store = await open();
      const record = jobRecord();
      await store.jobs.create(record, taskInputs(2));
      await expect(store.jobs.create({ ...record, request: 'other' }, taskInputs(5, 'x'))).rejects.toMatchObject({
        code: 'STORE_JOB_EXISTS',
      });
      expect((await store.jobs.get(record.id))!.request).toBe(record.request);
      expect(await store.tasks.counts(record.id)).toEqual({ queued: 2, active: 0, done: 0, failed: 0 });
    });

    it('creates the first tasks de-duplicated, in order', async () => {
      const store = await open();
      const tasks = [...taskInputs(3), { key: 'k1', url: 'https://example.com/dup', depth: 0 }];
      const id = await createJob(store, {}, tasks);
      expect(await store.tasks.counts(id)).toEqual({ queued: 3, active: 0, done: 0, failed: 0 });
      const claimed = await store.tasks.claim(id, 10, 0);
      expect(claimed.map((t) => [t.key, t.seq, t.url])).toEqual([
        ['k0', 1, 'https://example.com/k0'],
        ['k1', 2, 'https://example.com/k1'],
        ['k2', 3, 'https://example.com/k2'],
      ]);
    });

    it('updates the given fields and updatedAt, clears optional fields given as undefined', async () => {
      const store = await open();
      const id = await createJob(store, { error: 'old', expiresAt: 99 });
      const before = Date.now();
      await store.jobs.update(id, { status: 'completed', completedAt: 50 });
      let got = (await store.jobs.get(id))!;
      expect(got).toMatchObject({ status: 'completed', completedAt: 50, error: 'old', expiresAt: 99 });
      expect(got.updatedAt).toBeGreaterThanOrEqual(before);
      await store.jobs.update(id, { error: undefined, expiresAt: undefined, updatedAt: 7, creditsUsed: 4 });
      got = (await store.jobs.get(id))!;
      expect(got.updatedAt).toBe(7);
      expect(got.creditsUsed).toBe(4);
      expect('error' in got).toBe(false);
      expect('expiresAt' in got).toBe(false);
      expect(got.completedAt).toBe(50);
      await store.jobs.update('nope', { status: 'failed' });
      expect(await store.jobs.get('nope')).toBeUndefined();
    });

    it('replaces the request only while it is the expected one (a compare-and-set), with updatedAt', async () => {
      const store = await open();
      const id = await createJob(store, { request: '{"v":1}', updatedAt: 1 });
      expect(await store.jobs.replaceRequest(id, '{"v":1}', '{"v":2,"é":"ü"}')).toBe(true);
      let got = (await store.jobs.get(id))!;
      expect(got.request).toBe('{"v":2,"é":"ü"}');
      expect(got.updatedAt).toBeGreaterThan(1);
      // A writer that read the first request is refused: the second one stays.
      expect(await store.jobs.replaceRequest(id, '{"v":1}', '{"v":3}')).toBe(false);
      expect(await store.jobs.replaceRequest(id, '{"v":2}', '{"v":3}')).toBe(false);
      got = (await store.jobs.get(id))!;
      expect(got.request).toBe('{"v":2,"é":"ü"}');
      expect(await store.jobs.replaceRequest(id, '{"v":2,"é":"ü"}', '{"v":3}')).toBe(true);
      expect((await store.jobs.get(id))!.request).toBe('{"v":3}');
      expect(await store.jobs.replaceRequest('nope', '', '{}')).toBe(false);
      expect(await store.jobs.get('nope')).toBeUndefined();
    });

    it('lets one of three writers that read the same request replace it, at once', async () => {
      const store = await open();
      const id = await createJob(store, { request: 'read' });
      const wrote = await Promise.all(['a', 'b', 'c'].map((next) => store.jobs.replaceRequest(id, 'read', next)));
      expect(wrote.filter(Boolean)).toHaveLength(1);
      expect((await store.jobs.get(id))!.request).toBe(['a', 'b', 'c'][wrote.indexOf(true)]);
    });

    it('lists newest first, filtered by status and kind', async () => {
      const store = await open();
      const a = await createJob(store, { createdAt: 1, kind: 'crawl', status: 'scraping' });
      const b = await createJob(store, { createdAt: 3, kind: 'batch', status: 'scraping' });
      const c = await createJob(store, { createdAt: 2, kind: 'crawl', status: 'completed' });
      expect((await store.jobs.list()).map((j) => j.id)).toEqual([b, c, a]);
      expect((await store.jobs.list({ status: ['scraping'] })).map((j) => j.id)).toEqual([b, a]);
      expect((await store.jobs.list({ status: ['scraping', 'completed'], kind: 'crawl' })).map((j) => j.id)).toEqual([
        c,
        a,
      ]);
      expect(await store.jobs.list({ status: [] })).toEqual([]);
    });

    it('deletes a job with all its rows, leaving other jobs alone', async () => {
      const store = await open();
      const id = await createJob(store, {}, taskInputs(3));
      const other = await createJob(store, {}, taskInputs(1));
      const [task] = await store.tasks.claim(id, 1, 0);
      await store.tasks.complete(id, { key: task!.key, credits: 1, document: 'doc' });
      await store.results.addError(id, { url: 'u', error: 'e' });
      await store.results.addRobotsBlocked(id, 'https://example.com/robots');
      await store.deliveries.enqueue({ id: 'd1', jobId: id, payload: 'p', nextAttemptAt: 0 });
      await store.deliveries.enqueue({ id: 'd2', jobId: other, payload: 'p', nextAttemptAt: 0 });
      await store.jobs.delete(id);
      await store.jobs.delete('nope');
      expect(await store.jobs.get(id)).toBeUndefined();
      expect(await store.tasks.has(id, 'k0')).toBe(false);
      expect(await store.tasks.counts(id)).toEqual({ queued: 0, active: 0, done: 0, failed: 0 });
      expect(await store.results.count(id)).toBe(0);
      expect(await store.results.list(id, 0, 10)).toEqual([]);
      expect(await store.results.errors(id)).toEqual([]);
      expect(await store.results.robotsBlocked(id)).toEqual([]);
      expect((await store.deliveries.pending()).map((d) => d.id)).toEqual(['d2']);
      expect(await store.tasks.counts(other)).toEqual({ queued: 1, active: 0, done: 0, failed: 0 });
    });

    it('a deleted id can be created again from scratch', async () => {
      const store = await open();
      const record = jobRecord();
      await store.jobs.create(record, taskInputs(2));
      await store.jobs.delete(record.id);
      await store.jobs.create(record, taskInputs(1, 'z'));
      expect(await store.tasks.has(record.id, 'k0')).toBe(false);
      expect((await store.tasks.claim(record.id, 5, 0)).map((t) => [t.key, t.seq])).toEqual([['z0', 1]]);
    });

    it('deletes expired jobs and returns their ids', async () => {
      const store = await open();
      const expired = await createJob(store, { expiresAt: 100 }, taskInputs(2));
      const edge = await createJob(store, { expiresAt: 200 });
      const later = await createJob(store, { expiresAt: 201 });
      const never = await createJob(store);
      await store.results.addError(expired, { url: 'u', error: 'e' });
      expect((await store.jobs.deleteExpired(200)).sort()).toEqual([expired, edge].sort());
      expect(await store.jobs.get(expired)).toBeUndefined();
      expect(await store.results.errors(expired)).toEqual([]);
      expect(await store.tasks.has(expired, 'k0')).toBe(false);
      expect(await store.jobs.get(later)).toBeDefined();
      expect(await store.jobs.get(never)).toBeDefined();
      expect(await store.jobs.deleteExpired(200)).toEqual([]);
    });

    it('grants a lease to one owner at a time until it expires or is released', async () => {
      const store = await open();
      const id = await createJob(store);
      expect(await store.jobs.acquireLease(id, 'a', 1_000, 10_000)).toBe(true);
      expect(await store.jobs.acquireLease(id, 'b', 1_000, 10_500)).toBe(false);
      expect(await store.jobs.acquireLease(id, 'a', 1_000, 10_900)).toBe(true);
      expect(await store.jobs.acquireLease(id, 'b', 1_000, 11_000)).toBe(false);
      expect(await store.jobs.acquireLease(id, 'b', 1_000, 11_900)).toBe(true);
      await store.jobs.releaseLease(id, 'a');
      expect(await store.jobs.acquireLease(id, 'a', 1_000, 12_000)).toBe(false);
      await store.jobs.releaseLease(id, 'b');
      expect(await store.jobs.acquireLease(id, 'a', 1_000, 12_000)).toBe(true);
      expect(await store.jobs.acquireLease('nope', 'a', 1_000)).toBe(false);
      await store.jobs.releaseLease('nope', 'a');
    });

    it('reads the statuses of many jobs at once, without the ids it does not hold', async () => {
      const store = await open();
      // Optional in the contract (a waiter reads each record instead); every driver of this package has it.
      if (!store.jobs.statuses) return;
      const running = await createJob(store, { request: 'x'.repeat(100_000) }, taskInputs(3));
      const ended = await createJob(store, { status: 'completed', completedAt: 5, expiresAt: 9_000 });
      const statuses = await store.jobs.statuses([running, 'nope', ended]);
      expect([...statuses]).toEqual([
        [running, { status: 'scraping', resultSeq: 0 }],
        [ended, { status: 'completed', expiresAt: 9_000, resultSeq: 0 }],
      ]);
      // The result seq moves with each stored document, not with a page that failed.
      const tasks = await store.tasks.claim(running, 3, 0);
      await store.tasks.complete(running, { key: tasks[0]!.key, credits: 1, document: 'doc' });
      await store.tasks.complete(running, { key: tasks[1]!.key, credits: 0, error: { url: 'u', error: 'boom' } });
      await store.tasks.complete(running, { key: tasks[2]!.key, credits: 1, document: 'doc' });
      expect((await store.jobs.statuses([running])).get(running)).toEqual({ status: 'scraping', resultSeq: 2 });
      expect((await store.results.since(running, 2, 10)).length).toBe(0);
      await store.jobs.update(running, { status: 'cancelled' });
      await store.jobs.delete(ended);
      expect(await store.jobs.statuses([ended, running])).toEqual(
        new Map([[running, { status: 'cancelled', resultSeq: 2 }]]),
      );
      expect(await store.jobs.statuses([])).toEqual(new Map());
    });

    it('reports the lease holder, expired or not, until it is released', async () => {
      const store = await open();
      if (!store.jobs.leaseHolder) return;
      const id = await createJob(store);
      expect(await store.jobs.leaseHolder(id)).toBeUndefined();
      expect(await store.jobs.leaseHolder('nope')).toBeUndefined();
      await store.jobs.acquireLease(id, 'a', 1_000, 10_000);
      expect(await store.jobs.leaseHolder(id)).toEqual({ owner: 'a', until: 11_000 });
      // A crashed holder's lease is freed by compare-and-swap: only while `a` still holds it.
      await store.jobs.acquireLease(id, 'b', 1_000, 11_000);
      await store.jobs.releaseLease(id, 'a');
      expect(await store.jobs.leaseHolder(id)).toEqual({ owner: 'b', until: 12_000 });
      await store.jobs.releaseLease(id, 'b');
      expect(await store.jobs.leaseHolder(id)).toBeUndefined();
    });

    it('hands a contended lease to exactly one of many concurrent callers', async () => {
      const store = await open();
      const id = await createJob(store);
      const owners = Array.from({ length: 20 }, (_, i) => `owner-${i}`);
      const granted = await Promise.all(owners.map((o) => store.jobs.acquireLease(id, o, 60_000)));
      expect(granted.filter(Boolean)).toHaveLength(1);
    });
  });
}
