/**
 * A run of a schedule, scheduled or manual, holds the schedule in the store from before it reads the schedule's last
 * run until it has written its own, so that the run after it sees the crawls it started (and skips a target whose
 * crawl still runs) in whichever process it runs. The hold is the store's claim, the compare-and-set of `nextRunAt`
 * that makes a firing run in one process: it sets `nextRunAt` to minus the time the hold ends, and the release sets
 * the next firing. A hold whose process stopped ends after `HOLD_MS`: the scheduler then sets the first firing after
 * its end, without running the held one again (its crawls may have started: a firing runs at most once).
 */
import { setTimeout as wait } from 'node:timers/promises';

import type { ScheduleStore, StoredSchedule } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';

/** How long a hold lasts at most (its process stopped while starting the run's crawls), in milliseconds. */
export const HOLD_MS = 60_000;

/** How often a run waits to see a hold of another process end, in milliseconds. */
const HOLD_POLL_MS = 20;

/** A schedule held by this process: `release` sets its next firing. */
export interface Hold {
  stored: StoredSchedule;
  release(nextRunAt: number): Promise<void>;
}

/** When a held schedule's hold ends, or undefined when `nextRunAt` is not a hold. */
export function heldUntil(nextRunAt: number): number | undefined {
  return nextRunAt < 0 ? -nextRunAt : undefined;
}

/** The next firing a view shows: null for none (`NEVER`), or while a run holds the schedule (set as it ends). */
export function shownNextRunAt(nextRunAt: number, never: number): string | null {
  return nextRunAt >= never || nextRunAt < 0 ? null : new Date(nextRunAt).toISOString();
}

/** Holds `stored` as it was read; undefined when it changed since (another process took it, or it was changed). */
export async function hold(schedules: ScheduleStore, stored: StoredSchedule, now: number): Promise<Hold | undefined> {
  const held = -(now + HOLD_MS);
  if (!(await schedules.claim(stored.id, stored.nextRunAt, held))) return undefined;
  return {
    stored,
    async release(nextRunAt) {
      // Changed while held (paused, updated, deleted): the change stands.
      await schedules.claim(stored.id, held, nextRunAt);
    },
  };
}

/**
 * Holds the schedule `id` for a manual run, once a run holding it in another process has ended; its next firing is
 * given back as it was on release. `SCHEDULE_NOT_FOUND` when it was deleted meanwhile.
 */
export async function holdForRun(schedules: ScheduleStore, id: string, signal: AbortSignal): Promise<Hold> {
  for (;;) {
    const stored = await schedules.get(id);
    if (!stored) throw new CrawlkitError('SCHEDULE_NOT_FOUND', 'Schedule not found');
    const now = Date.now();
    const until = heldUntil(stored.nextRunAt);
    if (until === undefined || until <= now) {
      const taken = await hold(schedules, stored, now);
      if (taken) return taken;
    } else {
      await wait(HOLD_POLL_MS, undefined, { signal });
    }
  }
}
