import { describe, expect, it } from 'vitest';

import { parseTimeFilter } from './time-filter.js';

const now = Date.UTC(2026, 5, 15, 12);

describe('parseTimeFilter', () => {
  it('reads relative periods, with a count', () => {
    expect(parseTimeFilter('qdr:h', now)).toEqual({ since: now - 3_600_000 });
    expect(parseTimeFilter('qdr:d3', now)).toEqual({ since: now - 3 * 86_400_000 });
    expect(parseTimeFilter('qdr:w', now)).toEqual({ since: now - 7 * 86_400_000 });
  });

  it('reads custom date ranges, the end day included', () => {
    expect(parseTimeFilter('cdr:1,cd_min:1/2/2026,cd_max:1/3/2026', now)).toEqual({
      since: Date.UTC(2026, 0, 2),
      until: Date.UTC(2026, 0, 3) + 86_399_999,
    });
    expect(parseTimeFilter('cdr:1,cd_max:12/31/2025', now)).toEqual({ until: Date.UTC(2025, 11, 31) + 86_399_999 });
  });

  it('refuses days that do not exist and ranges that end before they start', () => {
    for (const tbs of [
      'cdr:1,cd_min:13/45/2026',
      'cdr:1,cd_max:2/30/2026',
      'cdr:1,cd_min:0/1/2026',
      'cdr:1,cd_min:3/1/2026,cd_max:1/1/2026',
    ]) {
      expect(parseTimeFilter(tbs, now), tbs).toBeUndefined();
    }
    expect(parseTimeFilter('cdr:1,cd_min:2/29/2028,cd_max:2/29/2028', now)).toEqual({
      since: Date.UTC(2028, 1, 29),
      until: Date.UTC(2028, 1, 29) + 86_399_999,
    });
  });

  it('refuses anything else', () => {
    for (const tbs of ['qdr:x', 'qdr:', 'yesterday', 'cdr:1,cd_min:2026-01-01', 'cdr:1,when:1/1/2026', 'sbd:1']) {
      expect(parseTimeFilter(tbs, now), tbs).toBeUndefined();
    }
  });
});
