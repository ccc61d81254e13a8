import { describe, expect, it } from 'vitest';

import { skipWithout, useStores, type StoreFactory } from './harness.js';

export function describeScheduleConformance(factory: StoreFactory): void {
  describe('schedules', () => {
    const open = useStores(factory);
    skipWithout(factory, 'schedules'); // optional in the contract

    it('keeps, replaces, lists oldest first and deletes schedules', async () => {
      const store = await open();
      const schedules = store.schedules!;
      expect(await schedules.get('a')).toBeUndefined();
      expect(await schedules.list()).toEqual([]);
      await schedules.put({ id: 'b', value: '{"b":1}', nextRunAt: 2_000, createdAt: 20 });
      await schedules.put({ id: 'a', value: '{"a":1}', nextRunAt: 1_764_000_000_123, createdAt: 10 });
      expect(await schedules.get('a')).toEqual({
        id: 'a',
        value: '{"a":1}',
        nextRunAt: 1_764_000_000_123,
        createdAt: 10,
      });
      // A replaced schedule keeps its creation time (and its place in the list).
      await schedules.put({ id: 'a', value: '{"a":2}', nextRunAt: 3_000, createdAt: 99 });
      expect(await schedules.list()).toEqual([
        { id: 'a', value: '{"a":2}', nextRunAt: 3_000, createdAt: 10 },
        { id: 'b', value: '{"b":1}', nextRunAt: 2_000, createdAt: 20 },
      ]);
      expect(await schedules.delete('a')).toBe(true);
      expect(await schedules.delete('a')).toBe(false);
      expect((await schedules.list()).map((s) => s.id)).toEqual(['b']);
    });

    it('lets one claim of a firing through, and none of a stale or deleted one', async () => {
      const store = await open();
      const schedules = store.schedules!;
      await schedules.put({ id: 's', value: '{}', nextRunAt: 1_000, createdAt: 1 });
      const claims = await Promise.all(Array.from({ length: 20 }, () => schedules.claim('s', 1_000, 2_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await schedules.get('s'))?.nextRunAt).toBe(2_000);
      expect(await schedules.claim('s', 1_000, 3_000)).toBe(false);
      expect(await schedules.claim('s', 2_000, 3_000)).toBe(true);
      await schedules.delete('s');
      expect(await schedules.claim('s', 3_000, 4_000)).toBe(false);
      expect(await schedules.get('s')).toBeUndefined();
    });
  });
}
