/**
 * When a schedule fires: every fixed interval (`every: '6h'`) or at the times of a cron expression
 * (`cron: '0 *\/6 * * *'`, read by croner, with an optional seconds field first).
 */
import { Cron } from 'croner';

/** A schedule's clock as validated. */
export type ScheduleClock = { every: string; intervalMs: number } | { cron: string; timezone?: string | undefined };

/** Shortest interval a schedule may have, in milliseconds. */
export const MIN_INTERVAL_MS = 1_000;

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(?:\d+[smhd])+$/;

/** Milliseconds of a duration such as `90s`, `15m`, `6h`, `1d` or `1h30m`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const compact = text.trim().toLowerCase();
  if (!DURATION.test(compact)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of compact.matchAll(/(\d+)([smhd])/g)) ms += Number(amount) * UNIT_MS[unit!]!;
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Why `every` is not a usable interval, or undefined when it is. */
export function intervalProblem(every: string): string | undefined {
  const ms = parseDuration(every);
  if (ms === undefined) {
    return `\`every\` must be a duration such as "30s", "15m", "6h", "1d" or "1h30m" (a number then s, m, h or d), got "${every}".`;
  }
  if (ms < MIN_INTERVAL_MS) return `\`every\` must be at least 1s, got "${every}".`;
  return undefined;
}

/** Why `cron` is not a usable cron expression (croner's reason), or undefined when it is. */
export function cronProblem(cron: string): string | undefined {
  try {
    const next = new Cron(cron, { paused: true }).nextRun();
    if (!next) return `\`cron\` "${cron}" never fires again: give an expression that matches a future time.`;
    return undefined;
  } catch (error) {
    return (
      `\`cron\` must be a cron expression of five fields (minute hour day month weekday), or six with seconds ` +
      `first, e.g. "0 */6 * * *": "${cron}" is not (${(error as Error).message}).`
    );
  }
}

/** Whether `zone` is an IANA time zone this Node.js knows (`Europe/Paris`, `UTC`). */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first firing of `clock` strictly after `after`, counted from `dueAt` for an interval (so that firings keep
 * their phase: `dueAt + k × interval`); undefined when a cron expression never fires again.
 */
export function nextFiring(clock: ScheduleClock, dueAt: number, after: number): number | undefined {
  if ('intervalMs' in clock) {
    const steps = Math.max(1, Math.floor((after - dueAt) / clock.intervalMs) + 1);
    return dueAt + steps * clock.intervalMs;
  }
  const zone = clock.timezone !== undefined ? { timezone: clock.timezone } : {};
  return new Cron(clock.cron, { paused: true, ...zone }).nextRun(new Date(after))?.getTime();
}

/** When a new schedule first fires: at once for an interval, at the next matching time for a cron expression. */
export function firstFiring(clock: ScheduleClock, now: number): number | undefined {
  return 'intervalMs' in clock ? now : nextFiring(clock, now, now);
}
