import { describe, expect, it } from 'vitest';
import { createJob, useStores, type StoreFactory } from './harness.js';

export function describeEngineConformance(factory: StoreFactory): void {
  describe('engines', () => {
    const open = useStores(factory);

    it('counts the pages of a host that held their content and those that needed the browser', async () => {
      const store = await open();
      const id = await createJob(store);
      expect(await store.engines.get(id, 'a.test')).toBeUndefined();
      expect(await store.engines.record(id, 'a.test', 'browser')).toEqual({ http: 0, browser: 1 });
      expect(await store.engines.record(id, 'a.test', 'browser')).toEqual({ http: 0, browser: 2 });
      expect(await store.engines.record(id, 'a.test', 'http')).toEqual({ http: 1, browser: 2 });
      expect(await store.engines.get(id, 'a.test')).toEqual({ http: 1, browser: 2 });
      expect(await store.engines.get(id, 'b.test:8080')).toBeUndefined();
      expect(await store.engines.get('nope', 'a.test')).toBeUndefined();
      // Counts belong to their job.
      const other = await createJob(store);
      expect(await store.engines.get(other, 'a.test')).toBeUndefined();
    });

    it('halves both counts when they would go over maxCount, so old pages fade', async () => {
      const store = await open();
      const id = await createJob(store);
      for (let i = 0; i < 3; i++) await store.engines.record(id, 'a.test', 'browser', { maxCount: 4 });
      expect(await store.engines.record(id, 'a.test', 'http', { maxCount: 4 })).toEqual({ http: 1, browser: 3 });
      // 1 + 3 + 1 > 4: halved to 0 and 1, then counted.
      expect(await store.engines.record(id, 'a.test', 'http', { maxCount: 4 })).toEqual({ http: 1, browser: 1 });
      for (let i = 0; i < 40; i++) await store.engines.record(id, 'b.test', 'http');
      const stats = await store.engines.get(id, 'b.test');
      expect(stats!.http + stats!.browser).toBeLessThanOrEqual(20);
      expect(stats!.browser).toBe(0);
    });

    it('keeps at most maxHosts hosts per job', async () => {
      const store = await open();
      const id = await createJob(store);
      expect(await store.engines.record(id, 'a.test', 'http', { maxHosts: 2 })).toEqual({ http: 1, browser: 0 });
      expect(await store.engines.record(id, 'b.test', 'http', { maxHosts: 2 })).toEqual({ http: 1, browser: 0 });
      expect(await store.engines.record(id, 'c.test', 'browser', { maxHosts: 2 })).toBeUndefined();
      expect(await store.engines.get(id, 'c.test')).toBeUndefined();
      // Known hosts still count.
      expect(await store.engines.record(id, 'a.test', 'http', { maxHosts: 2 })).toEqual({ http: 2, browser: 0 });
    });

    it('counts concurrent pages exactly once each', async () => {
      const store = await open();
      const id = await createJob(store);
      const limits = { maxCount: 1_000 };
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => store.engines.record(id, 'a.test', i % 3 ? 'http' : 'browser', limits)),
      );
      expect(await store.engines.get(id, 'a.test')).toEqual({ http: 40, browser: 20 });
    });

    it('goes with its job, rejects an unknown job and bad limits', async () => {
      const store = await open();
      const id = await createJob(store);
      await store.engines.record(id, 'a.test', 'browser');
      await store.jobs.delete(id);
      expect(await store.engines.get(id, 'a.test')).toBeUndefined();
      await expect(store.engines.record(id, 'a.test', 'http')).rejects.toMatchObject({ code: 'STORE_JOB_NOT_FOUND' });
      const live = await createJob(store);
      await expect(store.engines.record(live, 'a.test', 'http', { maxCount: 0 })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
      });
    });
  });
}
