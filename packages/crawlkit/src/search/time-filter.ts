/** Upstream's `tbs` time filter (Google's): a relative period, or a custom date range. */

const PERIOD_MS: Record<string, number> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 31 * 86_400_000,
  y: 366 * 86_400_000,
};

/**
 * A US date `M/D/YYYY` at midnight UTC; `endOfDay` moves it to the last millisecond of that day. A day that does not
 * exist (`13/45/2026`, `2/30/2026`) is none: `Date.UTC` would roll it over into another month.
 */
function usDate(value: string, endOfDay: boolean): number | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[3]), Number(match[1]), Number(match[2])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return endOfDay ? date.getTime() + 86_399_999 : date.getTime();
}

/**
 * The time range of `tbs` at `now`, or undefined when it is not one (`{}`: no bound); a range whose `cd_min` is after
 * its `cd_max` is none either (it would match nothing, silently).
 */
export function parseTimeFilter(tbs: string, now: number): { since?: number; until?: number } | undefined {
  const value = tbs.trim();
  const relative = /^qdr:([hdwmy])(\d{0,4})$/.exec(value);
  if (relative) return { since: now - PERIOD_MS[relative[1]!]! * Number(relative[2] || 1) };
  if (!value.startsWith('cdr:1')) return undefined;
  const range: { since?: number; until?: number } = {};
  for (const part of value.split(',').slice(1)) {
    const [name, date = ''] = part.split(':');
    const time = usDate(date, name === 'cd_max');
    if (time === undefined || (name !== 'cd_min' && name !== 'cd_max')) return undefined;
    if (name === 'cd_min') range.since = time;
    else range.until = time;
  }
  if (range.since !== undefined && range.until !== undefined && range.since > range.until) return undefined;
  return range;
}
