import { describe, expect, it } from 'vitest';

import { WarnThrottle } from './warn-throttle.js';

describe('WarnThrottle', () => {
  it('tells a key first, then once every everyMs, with what was told before and how many were kept quiet', () => {
    const throttle = new WarnThrottle(60_000);
    expect(throttle.tell('a', 0)).toEqual({ last: undefined });
    expect(throttle.tell('a', 1_000)).toBeUndefined();
    expect(throttle.tell('b', 2_000)).toEqual({ last: undefined });
    expect(throttle.tell('a', 59_999)).toBeUndefined();
    expect(throttle.tell('a', 60_000)).toEqual({ last: { at: 0, unsaid: 2 } });
    expect(throttle.tell('a', 61_000)).toBeUndefined();
    expect(throttle.tell('b', 62_000)).toEqual({ last: { at: 2_000, unsaid: 0 } });
  });

  it('forgets the key told longest ago past maxKeys, which is then told as a first again', () => {
    const throttle = new WarnThrottle(60_000, 2);
    throttle.tell('a', 0);
    throttle.tell('b', 1);
    throttle.tell('a', 60_000);
    throttle.tell('c', 60_001);
    // b was told longest ago: forgotten; a (told again at 60,000) and c are kept
    expect(throttle.tell('b', 60_002)).toEqual({ last: undefined });
    expect(throttle.tell('c', 60_003)).toBeUndefined();
  });
});
