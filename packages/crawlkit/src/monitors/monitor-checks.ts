/**
 * A monitor's checks: one per firing of its schedule, recorded when the firing starts its crawls and closed once they
 * have ended (by the scheduler following them, or by the first read after). A check's pages are its crawls' change
 * feeds (`same`, `new`, `changed`, `removed`), their failed pages (`error`), and each changed page's diff.
 */
import type { Store } from '@crawlkit/store';
import { v5 as uuidv5 } from 'uuid';

import { completedChanges } from '../changes/change-feed.js';
import { decodeDocument } from '../codec/records.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { ScheduleRun } from '../schedules/schedule-runs.js';
import { addCheck, readCheck, readMonitor, writeCheck, type MonitorCheckValue } from './monitor-store.js';

type Closed = NonNullable<MonitorCheckValue['closed']>;
export type MonitorCheckPage = Closed['pages'][number];
export type MonitorSummary = Closed['summary'];
export type CheckStatus = Closed['status'] | 'running';

/** Documents read at once from a crawl's results. */
const READ_PAGE = 200;

/**
 * The id of the check of a firing: the same in every process that computes it. Its crawls' ids are in it, so two
 * runs started in the same millisecond (`run` here and there) are two checks.
 */
export function checkIdOf(monitorId: string, run: Pick<ScheduleRun, 'dueAt' | 'startedAt' | 'jobIds'>): string {
  return uuidv5(`check\n${run.dueAt}\n${run.startedAt}\n${run.jobIds.join(',')}`, monitorId);
}

/** A firing started: when its schedule is a monitor's, records its check. */
export async function recordCheck(
  store: Store,
  monitorId: string,
  run: ScheduleRun,
  trigger: 'scheduled' | 'manual',
): Promise<void> {
  const monitor = await readMonitor(store, monitorId);
  if (!monitor) return;
  const id = checkIdOf(monitorId, run);
  const check: MonitorCheckValue = {
    monitorId,
    trigger,
    scheduledFor: run.dueAt,
    startedAt: run.startedAt,
    jobIds: run.jobIds,
    skipped: run.skipped,
    errors: run.errors,
    meta: monitor.meta,
    slots: monitor.slots,
  };
  if (run.skipped.length === run.jobIds.length) {
    check.closed = { status: 'skipped_overlap', finishedAt: run.startedAt, summary: summaryOf([]), pages: [] };
  }
  await writeCheck(store, id, check);
  await addCheck(store, monitorId, id, run.startedAt);
}

/** The check with its outcome: closed (and kept so) once every crawl has ended, else running with its pages so far. */
export async function checkState(
  store: Store,
  jobs: JobManager,
  id: string,
  check: MonitorCheckValue,
): Promise<{ status: CheckStatus; finishedAt: number | null; summary: MonitorSummary; pages: MonitorCheckPage[] }> {
  if (check.closed) return check.closed;
  const pages: MonitorCheckPage[] = [];
  let running = false;
  let ended = 0;
  let finishedAt = check.startedAt;
  const errors = [...check.errors];
  for (const [slot, jobId] of check.jobIds.entries()) {
    if (jobId === null || check.skipped.includes(slot)) continue;
    const found = await jobs.find(jobId);
    if (!found) {
      errors.push(`crawl ${jobId} expired before the check was closed`);
      continue;
    }
    const targetId = check.meta[check.slots[slot]!]!.id;
    pages.push(...(await feedPages(found.store, jobId, id, targetId)));
    if (found.job.status === 'scraping') running = true;
    else if (found.job.status === 'completed') ended++;
    else errors.push(`crawl ${jobId} ${found.job.status}`);
    finishedAt = Math.max(finishedAt, found.job.completedAt ?? found.job.updatedAt);
  }
  const summary = summaryOf(pages);
  if (running) return { status: 'running', finishedAt: null, summary, pages };
  const status = errors.length === 0 ? 'completed' : ended > 0 ? 'partial' : 'failed';
  const closed: Closed = { status, finishedAt, summary, pages };
  await writeCheck(store, id, { ...check, errors, closed });
  return closed;
}

/** Every crawl of a firing followed by the scheduler ended: closes the monitor's check (when it is one). */
export async function settleCheck(store: Store, jobs: JobManager, monitorId: string, run: ScheduleRun): Promise<void> {
  const id = checkIdOf(monitorId, run);
  const check = await readCheck(store, id);
  if (check && !check.closed) await checkState(store, jobs, id, check);
}

export function summaryOf(pages: MonitorCheckPage[]): MonitorSummary {
  const summary: MonitorSummary = { totalPages: pages.length, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const page of pages) summary[page.status]++;
  return summary;
}

/** A crawl's pages as a check's: its stored pages with their change, its removed pages, then its failed pages. */
async function feedPages(store: Store, jobId: string, checkId: string, targetId: string): Promise<MonitorCheckPage[]> {
  const pages: MonitorCheckPage[] = [];
  const page = (url: string, fields: Partial<MonitorCheckPage> & Pick<MonitorCheckPage, 'status'>) =>
    pages.push({
      id: uuidv5(`${jobId}\n${url}`, checkId),
      targetId,
      url,
      currentScrapeId: null,
      statusCode: null,
      error: null,
      diff: null,
      ...fields,
    });
  for (let skip = 0; ; skip += READ_PAGE) {
    const results = await store.results.list(jobId, skip, READ_PAGE);
    for (const { document } of results) {
      const doc = decodeDocument(document);
      const { metadata } = doc;
      if (!metadata.crawlChange) continue;
      const diff = metadata.crawlChange === 'changed' ? doc.changeTracking?.diff : undefined;
      page(metadata.sourceURL, {
        status: metadata.crawlChange,
        currentScrapeId: metadata.scrapeId ?? null,
        statusCode: metadata.statusCode,
        ...(diff ? { diff } : {}),
      });
    }
    if (results.length < READ_PAGE) break;
  }
  for (const url of (await completedChanges(store, jobId))?.removed ?? []) page(url, { status: 'removed' });
  for (const failed of await store.results.errors(jobId)) page(failed.url, { status: 'error', error: failed.error });
  return pages;
}
