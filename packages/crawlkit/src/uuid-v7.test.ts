import { describe, expect, it } from 'vitest';

import { newJobId, scrapeId } from './uuid-v7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('scrapeId', () => {
  it('is a UUID v7 carrying the millisecond timestamp', () => {
    const now = Date.UTC(2026, 10, 22, 19, 30, 0, 123);
    const id = scrapeId(now);
    expect(id).toMatch(V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('is unique and sorts by time across milliseconds', () => {
    const ids = Array.from({ length: 10_000 }, () => scrapeId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(V7);
    expect(scrapeId(1_000) < scrapeId(1_001)).toBe(true);
  });
});

describe('newJobId', () => {
  it('sorts after every id made before it, within one millisecond and past its counter', () => {
    const now = Date.UTC(2031, 0, 1);
    const ids = Array.from({ length: 5_000 }, () => newJobId(now));
    for (const id of ids) expect(id).toMatch(V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Past 4,096 ids in one millisecond the next one's timestamp goes on; a clock that steps back changes nothing.
    expect(parseInt(ids.at(-1)!.replace(/-/g, '').slice(0, 12), 16)).toBe(now + 1);
    const earlier = newJobId(now - 10_000);
    expect(earlier > ids.at(-1)!).toBe(true);
  });
});
