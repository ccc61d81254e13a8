import { describe, expect, it } from 'vitest';

import { nextFiring } from './schedule-clock.js';

/** The firings of `cron` in `timezone` after `from`, as UTC times (Paris is UTC+1 in winter, UTC+2 in summer). */
function firings(cron: string, timezone: string, from: string, count: number): string[] {
  const out: string[] = [];
  let at = Date.parse(from);
  for (let i = 0; i < count; i++) {
    at = nextFiring({ cron, timezone }, at, at)!;
    out.push(new Date(at).toISOString().slice(0, 16));
  }
  return out;
}

describe('a cron clock in a time zone across its changes of time', () => {
  it('fires a time that does not exist on the day clocks go forward at the next one that does', () => {
    expect(firings('30 2 * * *', 'Europe/Paris', '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:00' /* 03:00 summer time */,
      '2026-03-30T00:30',
      '2026-03-31T00:30',
    ]);
  });

  it('fires a time that comes twice on the day clocks go back once, and an hourly clock every hour', () => {
    expect(firings('30 2 * * *', 'Europe/Paris', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30' /* the first 02:30, summer time */,
      '2026-10-26T01:30',
    ]);
    expect(firings('0 * * * *', 'Europe/Paris', '2026-10-24T23:30:00Z', 3)).toEqual([
      '2026-10-25T00:00' /* 02:00 summer time */,
      '2026-10-25T01:00' /* 02:00 winter time */,
      '2026-10-25T02:00',
    ]);
  });

  it('keeps 09:00 local in summer and winter', () => {
    expect(firings('0 9 * * *', 'Europe/Paris', '2026-03-28T00:00:00Z', 2)).toEqual([
      '2026-03-28T08:00',
      '2026-03-29T07:00',
    ]);
  });
});
