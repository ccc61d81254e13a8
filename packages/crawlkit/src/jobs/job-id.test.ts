import { describe, expect, it } from 'vitest';

import { newJobId } from './job-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
