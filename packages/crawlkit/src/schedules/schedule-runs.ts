/**
 * One firing of a schedule: a crawl job per target, in the target's lineage (tag `schedule:<id>:<index>`), so that
 * each run's change feed compares it with the target's previous run. The run is kept in the history store under
 * the schedule's id.
 */
import { randomUUID } from 'node:crypto';

import type { SecretBox, Store } from '@crawlkit/store';

import { startCrawl } from '../api/crawl.js';
import { deleteLineage, tagLineage } from '../changes/change-feed.js';
import type { scheduleCodec } from '../codec/records.js';
import { historyRecord } from '../codec/history-record.js';
import { scheduleRunCodec } from '../codec/records.js';
import type { EngineContext } from '../context.js';
import { toErrorResponse } from '../errors.js';
import type { JobManager } from '../jobs/job-manager.js';
import { openRequestSecrets } from '../jobs/job-secrets.js';
import type { CrawlRequestInput } from '../v2/jobs.js';
import { crawlBodyOf, type ScheduleTarget } from './schedule-request.js';

/** History tag of a schedule's runs (their `url` is the schedule's id). */
const runs = historyRecord('crawlkit:schedule-runs', scheduleRunCodec);

export type ScheduleValue = ReturnType<typeof scheduleCodec.decode>;

/** The owner and credit limit a schedule or monitor keeps from the call that created it, for what it starts. */
export function ownerOf(from: { tenant?: string | undefined; creditLimit?: number | undefined }): {
  tenant?: string;
  creditLimit?: number;
} {
  return {
    ...(from.tenant !== undefined ? { tenant: from.tenant } : {}),
    ...(from.creditLimit !== undefined ? { creditLimit: from.creditLimit } : {}),
  };
}
export type ScheduleRun = ReturnType<typeof scheduleRunCodec.decode>;

/** The tag of a target's lineage. */
export function targetTag(scheduleId: string, target: number): string {
  return `schedule:${scheduleId}:${target}`;
}

/** The crawl body of a target at a firing: its header values opened, its change feed named by its lineage. */
export function runBody(scheduleId: string, index: number, target: ScheduleTarget, box: SecretBox): CrawlRequestInput {
  const body = openRequestSecrets(crawlBodyOf(target), box);
  return { ...body, tag: targetTag(scheduleId, index) };
}

/**
 * Starts the crawls of a firing due at `dueAt` and records the run. A target whose crawl of the previous run is still
 * going is skipped (its runs never overlap, so each run is compared with the one before it); a refused target is an
 * error of the run.
 */
export async function startRun(
  ctx: EngineContext,
  jobs: JobManager,
  id: string,
  schedule: ScheduleValue,
  dueAt: number,
): Promise<ScheduleRun> {
  const previous = await lastRun(ctx.store, id);
  const run: ScheduleRun = {
    runId: randomUUID(),
    dueAt,
    startedAt: Date.now(),
    jobIds: [],
    skipped: [],
    errors: [],
  };
  const box = ctx.secrets(ctx.store);
  for (const [index, target] of schedule.targets.entries()) {
    const running = await stillRunning(jobs, previous?.jobIds[index]);
    if (running) {
      // The running crawl stays the target's latest, so the next firing checks it again.
      run.jobIds.push(running);
      run.skipped.push(index);
      run.errors.push(`targets[${index}] (${target.url}): skipped, its previous crawl ${running} is still running`);
      continue;
    }
    // As its creator: the tenant's crawl, under the credit limit the schedule was created with.
    const owner = ownerOf(schedule);
    const started = await startCrawl(ctx, jobs, runBody(id, index, target, box), owner).catch(toErrorResponse);
    run.jobIds.push(started.success ? started.id : null);
    if (!started.success) run.errors.push(`targets[${index}] (${target.url}): ${started.error}`);
  }
  await runs.write(ctx.store, id, run, run.startedAt);
  return run;
}

/** The id of the crawl when it is still running. */
async function stillRunning(jobs: JobManager, jobId: string | null | undefined): Promise<string | undefined> {
  if (!jobId) return undefined;
  const found = await jobs.find(jobId);
  return found?.job.status === 'scraping' ? jobId : undefined;
}

/**
 * Deletes what a deleted schedule's firings kept: its runs, and each target's last crawl (its pages' hashes, which
 * its next run would have been compared with). A crawl still running when the schedule is deleted writes its own.
 */
export async function deleteRunRecords(store: Store, id: string, schedule: ScheduleValue): Promise<void> {
  await runs.delete(store, id);
  for (const index of schedule.targets.keys()) {
    await deleteLineage(store, tagLineage(targetTag(id, index), schedule.tenant));
  }
}

/** The schedule's last run, or undefined before its first. */
export function lastRun(store: Store, id: string): Promise<ScheduleRun | undefined> {
  return runs.read(store, id);
}
