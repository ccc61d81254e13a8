import { describe, expect, it } from 'vitest';

import { skipWithout, useStores, type StoreFactory } from './harness.js';

export function describeCounterConformance(factory: StoreFactory): void {
  describe('counters', () => {
    const open = useStores(factory);
    skipWithout(factory, 'counters'); // optional in the contract

    it('adds and reads named numbers, 0 before the first add', async () => {
      const store = await open();
      const counters = store.counters!;
      expect(await counters.get('credits')).toBe(0);
      expect(await counters.add('credits', 5)).toBe(5);
      expect(await counters.add('credits', 2.5)).toBe(7.5);
      expect(await counters.add('credits', -7.5)).toBe(0);
      expect(await counters.add('other', 1)).toBe(1);
      expect(await counters.get('credits')).toBe(0);
    });

    it('refuses an add that would pass its bounds, changing nothing', async () => {
      const store = await open();
      const counters = store.counters!;
      expect(await counters.add('c', 8, { max: 10 })).toBe(8);
      expect(await counters.add('c', 3, { max: 10 })).toBeUndefined();
      expect(await counters.add('c', 2, { max: 10 })).toBe(10);
      expect(await counters.add('c', -11, { min: 0 })).toBeUndefined();
      expect(await counters.get('c')).toBe(10);
    });

    it('lets exactly as many concurrent adds through as the bound allows', async () => {
      const store = await open();
      const counters = store.counters!;
      const results = await Promise.all(Array.from({ length: 40 }, () => counters.add('c', 1, { max: 15 })));
      expect(results.filter((r) => r !== undefined)).toHaveLength(15);
      expect(await counters.get('c')).toBe(15);
    });
  });
}
