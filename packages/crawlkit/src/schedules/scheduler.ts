/**
 * Runs the schedules of the engine's store: a timer set to the earliest next firing (and at least every `pollMs`, for
 * schedules other processes add), and at each look every due firing is claimed in the store (one process takes it,
 * `ScheduleStore.claim`, holding the schedule while the run starts: `schedule-hold.ts`) and run. A firing missed while
 * no engine ran is due at the first look: it runs once, and the schedule then goes on from the first firing after now
 * (missed firings are not run one by one).
 */
import { clearTimeout, setTimeout } from 'node:timers';
import type { Delivery, Store, StoredSchedule } from '@crawlkit/store';

import { scheduleCodec } from '../codec/records.js';
import type { EngineContext } from '../context.js';
import { CrawlkitError } from '../errors.js';
import type { EventBus } from '../event-bus.js';
import type { JobManager } from '../jobs/job-manager.js';
import { nextFiring } from './schedule-clock.js';
import { heldUntil, hold, holdForRun, type Hold } from './schedule-hold.js';
import { clockOf } from './schedule-request.js';
import { queueChangeWebhooks } from './schedule-changes.js';
import { lastRun, startRun, type ScheduleRun, type ScheduleValue } from './schedule-runs.js';

/** `nextRunAt` of a cron expression that never fires again. */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** Longest wait between two looks at the store's schedules, in milliseconds. */
const POLL_MS = 15_000;

export interface SchedulerOptions {
  ctx: EngineContext;
  jobs: JobManager;
  bus: EventBus;
  /** A webhook event is in a job's outbox: deliver it. */
  queued(store: Store, delivery: Delivery): void;
  /** A firing started its crawls (a monitor records its check); awaited before the firing is told. */
  started?(id: string, run: ScheduleRun, trigger: 'scheduled' | 'manual'): Promise<void>;
  /**
   * Every crawl of a run followed here has ended, or the scheduler is closing (a monitor closes its check, once the
   * jobs it started itself have ended; `closing` aborts that wait).
   */
  settled?(id: string, run: ScheduleRun, closing: AbortSignal): Promise<void>;
}

export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #closing = new AbortController();
  readonly #follows = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #look: Promise<void> | undefined;
  #again = false;
  #started = false;
  /** Ids of the stored schedules already told unreadable (told once each). */
  readonly #unreadable = new Set<string>();

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#started && !this.#closing.signal.aborted;
  }

  /** Starts running due firings; the changes of each schedule's last run are queued again if a restart cut them off. */
  start(): void {
    if (this.#started || this.#closing.signal.aborted) return;
    this.#started = true;
    // The last runs are read before the first look, which may add a run of its own.
    this.#track(this.#resumeLastRuns().finally(() => this.wake()));
  }

  /** Looks at the schedules now (one was added, changed or deleted). */
  wake(): void {
    if (!this.running) return;
    if (this.#look) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#look = this.#lookOnce()
      .catch((error: unknown) => {
        this.#options.bus.internalError(undefined, error);
        return Date.now() + POLL_MS;
      })
      .then((wakeAt) => {
        this.#look = undefined;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else if (this.running) {
          this.#timer = setTimeout(() => this.wake(), Math.max(0, Math.min(wakeAt - Date.now(), POLL_MS)));
          this.#timer.unref();
        }
      });
  }

  /**
   * Runs a schedule now, out of its clock (its next firing stays as it is); its changes go to its webhook. It waits
   * for a run starting in another process (a firing at that moment) and sees its crawls.
   */
  async runNow(id: string): Promise<ScheduleRun> {
    const schedules = this.#options.ctx.store.schedules;
    if (!schedules) throw new CrawlkitError('SCHEDULES_UNSUPPORTED', 'The store keeps no schedules.');
    const held = await holdForRun(schedules, id, this.#closing.signal);
    const schedule = scheduleCodec.decode(held.stored.value);
    const run = await this.#start(held, schedule, Date.now(), held.stored.nextRunAt);
    // A firing that came due while held runs now, after this run.
    this.wake();
    await this.#options.started?.(id, run, 'manual');
    this.#options.bus.scheduleRun({ id, ...run });
    this.#track(this.#follow(id, schedule, run));
    return run;
  }

  /** Stops firing and waits for the look in progress; runs already started go on as jobs of the store. */
  async close(): Promise<void> {
    this.#closing.abort();
    clearTimeout(this.#timer);
    await this.#look;
    await Promise.allSettled(this.#follows);
  }

  /** Claims and runs every due firing; resolves to when the next one is due. */
  async #lookOnce(): Promise<number> {
    const schedules = this.#options.ctx.store.schedules;
    if (!schedules) return NEVER;
    const now = Date.now();
    let wakeAt = NEVER;
    for (const stored of await schedules.list()) {
      // A schedule held by a run starting elsewhere is given its next firing as that run ends.
      const until = heldUntil(stored.nextRunAt);
      const dueAt = until ?? stored.nextRunAt;
      if (dueAt > now) {
        wakeAt = Math.min(wakeAt, dueAt);
        continue;
      }
      const schedule = this.#readable(stored);
      if (!schedule) continue;
      const next = nextFiring(clockOf(schedule), dueAt, now) ?? NEVER;
      wakeAt = Math.min(wakeAt, next);
      if (this.#closing.signal.aborted) break;
      if (until !== undefined) {
        // Its process stopped while it held it, maybe with its crawls started: at most once, the run is not run again.
        await schedules.claim(stored.id, stored.nextRunAt, next);
        continue;
      }
      const held = await hold(schedules, stored, now);
      if (held) {
        const run = await this.#start(held, schedule, dueAt, next);
        await this.#options.started?.(stored.id, run, 'scheduled').catch((e: unknown) => this.#failed(e));
        this.#options.bus.scheduleRun({ id: stored.id, ...run });
        this.#track(this.#follow(stored.id, schedule, run));
      }
    }
    return wakeAt;
  }

  /** Starts the crawls of a run of the held schedule and records it, then sets its next firing. */
  async #start(held: Hold, schedule: ScheduleValue, dueAt: number, next: number): Promise<ScheduleRun> {
    try {
      return await startRun(this.#options.ctx, this.#options.jobs, held.stored.id, schedule, dueAt);
    } finally {
      await held.release(next);
    }
  }

  /** Each schedule's last run, followed again: its changes are queued once its crawls complete. */
  async #resumeLastRuns(): Promise<void> {
    const schedules = this.#options.ctx.store.schedules;
    if (!schedules) return;
    for (const stored of await schedules.list()) {
      const schedule = this.#readable(stored);
      const run = schedule && (await lastRun(this.#options.ctx.store, stored.id));
      // Its skipped targets too: the run that started their crawls may be an earlier one, followed by nobody now.
      if (schedule && run) this.#track(this.#follow(stored.id, schedule, { ...run, skipped: [] }, true));
    }
  }

  /**
   * Waits for the crawls of a run and queues their changes for the schedule's webhook. A `resumed` run's crawl that had
   * completed before this process started was told by the process that ran it: it is told again only if a restart cut
   * off the queuing of its changes.
   */
  async #follow(id: string, schedule: ScheduleValue, run: ScheduleRun, resumed = false): Promise<void> {
    const { jobs, bus } = this.#options;
    const queued = (store: Store, delivery: Delivery) => this.#options.queued(store, delivery);
    await Promise.all(
      run.jobIds.map(async (jobId, target) => {
        // A skipped target's crawl is followed by the run that started it.
        if (jobId === null || run.skipped.includes(target)) return;
        const told = resumed && (await jobs.find(jobId))?.job.status === 'completed';
        const job = await jobs.wait(jobId, this.#closing.signal).catch(() => undefined);
        if (job?.status !== 'completed') return;
        const count = await queueChangeWebhooks(jobs, { scheduleId: id, schedule, target, jobId }, queued);
        if (!told || count > 0) bus.scheduleChanges({ id, jobId, target, queued: count });
      }),
    );
    await this.#options.settled?.(id, run, this.#closing.signal);
  }

  /**
   * The stored schedule decoded, or `undefined` (told once as a `SCHEDULE_UNREADABLE` warning) when it cannot be read:
   * one unreadable record, say one written by a newer crawlkit, must not stop the other schedules from firing.
   */
  #readable(stored: StoredSchedule): ScheduleValue | undefined {
    try {
      return scheduleCodec.decode(stored.value);
    } catch (error) {
      if (!this.#unreadable.has(stored.id)) {
        this.#unreadable.add(stored.id);
        const why = error instanceof Error ? error.message : String(error);
        this.#options.bus.warning(
          'SCHEDULE_UNREADABLE',
          `Schedule ${stored.id} cannot be read (${why}) and is skipped; the other schedules fire. Delete it and create it again.`,
        );
      }
      return undefined;
    }
  }

  #failed(error: unknown): void {
    if (!this.#closing.signal.aborted) this.#options.bus.internalError(undefined, error);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#failed(error)).finally(() => this.#follows.delete(tracked));
    this.#follows.add(tracked);
  }
}
