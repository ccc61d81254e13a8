/** Upstream's `tbs` time filter (Google's): a relative period, or a custom date range. */

const PERIOD_MS: Record<string, number> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 31 * 86_400_000,
  y: 366 * 86_400_000,
};

/** A US date `M/D/YYYY` at midnight UTC; `endOfDay` moves it to the last millisecond of that day. */
function usDate(value: string, endOfDay: boolean): number | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const time = Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]));
  return Number.isNaN(time) ? undefined : endOfDay ? time + 86_399_999 : time;
}

/** The time range of `tbs` at `now`, or undefined when it is not one (`{}`: no bound). */
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
  return range;
}
