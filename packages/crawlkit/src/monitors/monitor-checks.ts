/**
 * A monitor's checks: one per firing of its schedule, recorded when the firing starts its crawls and closed once they
 * have ended (by the scheduler following them, or by the first read after). A check's pages are its crawls' change
 * feeds (`same`, `new`, `changed`, `removed`), their failed pages (`error`), and each changed page's diff.
 */
import type { Delivery, Store } from '@crawlkit/store';
import { uuidV5 } from '../uuid-v5.js';

import { completedChanges, feedUrl } from '../changes/change-feed.js';
import { pageGone } from '../scrape/page-status.js';
import type { EngineContext } from '../context.js';
import type { JobManager } from '../jobs/job-manager.js';
import { failedPages, storedDocuments } from '../jobs/stored-results.js';
import { ownerOf, type ScheduleRun } from '../schedules/schedule-runs.js';
import { queueCheckCompleted, queueSearchChanges } from './monitor-events.js';
import { judgePages, type JudgedInput } from './monitor-judge.js';
import type { CheckSearchValue } from './monitor-search.js';
import { runSearches, searchPages, type CheckSearch, type PageMaker } from './monitor-search.js';
import { PageChunks, summaryOfChunks } from './monitor-check-pages.js';
import { addCheck, readCheck, readMonitor, writeCheck, type MonitorCheckValue } from './monitor-store.js';

type Closed = NonNullable<MonitorCheckValue['closed']>;
export type MonitorCheckPage = NonNullable<Closed['pages']>[number];
export type MonitorSummary = Closed['summary'];
export type CheckStatus = Closed['status'] | 'running';
/** What a check reads and writes with: the engine's store, and its model for the judgments. */
export type CheckContext = Pick<EngineContext, 'store' | 'llm' | 'options'> & {
  /**
   * Hands a webhook event queued in a job's outbox to this process's dispatcher (else the dispatchers' poll finds it).
   */
  queued?: (store: Store, delivery: Delivery) => void;
  /** Runs the search targets' searches and scrapes (none: a search target's check is an error). */
  search?: CheckSearch;
};

/**
 * The id of the check of a firing, from the firing's own id (kept with the run): the same in every process that reads
 * the run, and another for each firing, even two started in the same millisecond.
 */
export function checkIdOf(
  monitorId: string,
  run: Pick<ScheduleRun, 'runId' | 'dueAt' | 'startedAt' | 'jobIds'>,
): string {
  // A run stored before firings had ids is named by what it did.
  if (run.runId !== undefined) return uuidV5(`check\n${run.runId}`, monitorId);
  return uuidV5(`check\n${run.dueAt}\n${run.startedAt}\n${run.jobIds.join(',')}`, monitorId);
}

/** A firing started: when its schedule is a monitor's, records its check. */
export async function recordCheck(
  ctx: CheckContext,
  jobs: JobManager,
  monitorId: string,
  run: ScheduleRun,
  trigger: 'scheduled' | 'manual',
): Promise<void> {
  const { store } = ctx;
  const monitor = await readMonitor(store, monitorId);
  if (!monitor) return;
  const id = checkIdOf(monitorId, run);
  const searching = monitor.meta.some((meta) => meta.search);
  const searched = searching
    ? await runSearches(store, ctx.search, monitorId, monitor.meta, ownerOf(monitor), run.startedAt)
    : undefined;
  const check: MonitorCheckValue = {
    monitorId,
    trigger,
    scheduledFor: run.dueAt,
    startedAt: run.startedAt,
    jobIds: run.jobIds,
    skipped: run.skipped,
    errors: [...run.errors, ...(searched?.errors ?? [])],
    meta: monitor.meta,
    slots: monitor.slots,
    ...(searched ? { searches: searched.searches } : {}),
    ...(monitor.goal !== undefined && monitor.judgeEnabled !== false ? { goal: monitor.goal } : {}),
  };
  // Its searches run whatever its crawls do: skipped only when it has nothing but crawls, all still running.
  if (!searching && run.skipped.length === run.jobIds.length) {
    check.closed = { status: 'skipped_overlap', finishedAt: run.startedAt, summary: summaryOf([]), pages: [] };
  }
  await writeCheck(store, id, check);
  await addCheck(store, monitorId, id, run.startedAt, monitor.retentionDays);
  // Closed as it starts: told now (through the outbox of a target's crawl still running).
  if (check.closed) await queueCheckCompleted(store, jobs, id, check, monitor, ctx.queued);
}

/**
 * A check's outcome: its pages in `pages` while it runs and as it is closed here, else (closed) in the chunks whose
 * counts `chunks` holds (`monitor-check-pages.ts`).
 */
type CheckState = Omit<Closed, 'status' | 'finishedAt'> & { status: CheckStatus; finishedAt: number | null };

/** The checks this process is reading the crawls of: a second reader waits for the first (one judgment per page). */
const reading = new Map<string, Promise<CheckState>>();

/** The check with its outcome: closed (and kept so) once every crawl has ended, else running with its pages so far. */
export function checkState(
  ctx: CheckContext,
  jobs: JobManager,
  id: string,
  check: MonitorCheckValue,
): Promise<CheckState> {
  if (check.closed) return Promise.resolve(check.closed);
  let pending = reading.get(id);
  if (!pending) {
    pending = readState(ctx, jobs, id, check).finally(() => reading.delete(id));
    reading.set(id, pending);
  }
  return pending;
}

/** A check's jobs as they stand: each target's crawl or search batch found (or expired), and what they make of it. */
async function checkJobs(jobs: JobManager, check: MonitorCheckValue) {
  const crawls: { jobId: string; store: Store; targetId: string }[] = [];
  const searches: { searched: CheckSearchValue; store: Store | undefined }[] = [];
  const errors = [...check.errors];
  let running = false;
  let ended = 0;
  let finishedAt = check.startedAt;
  for (const [slot, jobId] of check.jobIds.entries()) {
    if (jobId === null || check.skipped.includes(slot)) continue;
    const found = await jobs.find(jobId);
    if (!found) {
      errors.push(`crawl ${jobId} expired before the check was closed`);
      continue;
    }
    crawls.push({ jobId, store: found.store, targetId: check.meta[check.slots[slot]!]!.id });
    if (found.job.status === 'scraping') running = true;
    else if (found.job.status === 'completed') ended++;
    else errors.push(`crawl ${jobId} ${found.job.status}`);
    finishedAt = Math.max(finishedAt, found.job.completedAt ?? found.job.updatedAt);
  }
  for (const searched of check.searches ?? []) {
    const found = searched.batchId === null ? undefined : await jobs.find(searched.batchId);
    if (searched.batchId !== null && !found)
      errors.push(`batch ${searched.batchId} expired before the check was closed`);
    searches.push({ searched, store: found?.store });
    if (found?.job.status === 'scraping') running = true;
    else if (!found || found.job.status === 'completed') ended++;
    else errors.push(`batch ${searched.batchId} ${found.job.status}`);
    if (found) finishedAt = Math.max(finishedAt, found.job.completedAt ?? found.job.updatedAt);
  }
  return { crawls, searches, errors, running, ended, finishedAt };
}

/** Where a check's pages go as they are made: a list (a running check), or the chunks of a closing one. */
interface PageSink {
  /** `text`: what a model would judge of a changed or new page (its diff, its markdown). */
  add(page: MonitorCheckPage, text?: string): unknown;
}

/**
 * Gives each page of the check's targets to `sink`, target by target; resolves to its search targets' pages (a few
 * hundred at most), whose events a close sends.
 */
async function eachPage(
  id: string,
  check: MonitorCheckValue,
  { crawls, searches }: Awaited<ReturnType<typeof checkJobs>>,
  sink: PageSink,
): Promise<MonitorCheckPage[]> {
  for (const { jobId, store, targetId } of crawls) await feedPages(store, jobId, id, targetId, sink);
  const found: MonitorCheckPage[] = [];
  for (const { searched, store } of searches) {
    const maker = pageMaker(searched.batchId ?? id, id, check.meta[searched.target]!.id);
    const texts: JudgedInput[] = [];
    const pages = await searchPages(store, searched, maker, texts);
    const textOf = new Map(texts.map(({ page, text }) => [page, text]));
    for (const page of pages) await sink.add(page, textOf.get(page));
    found.push(...pages);
  }
  return found;
}

async function readState(
  ctx: CheckContext,
  jobs: JobManager,
  id: string,
  check: MonitorCheckValue,
): Promise<CheckState> {
  const { store } = ctx;
  const seen = await checkJobs(jobs, check);
  const { errors, ended, finishedAt } = seen;
  const status = errors.length === 0 ? 'completed' : ended > 0 ? 'partial' : 'failed';
  // Closed meanwhile by a reader that had read the check before this one: its outcome stands.
  const latest = seen.running ? undefined : await readCheck(store, id);
  if (latest?.closed) return latest.closed;
  if (seen.running || !latest) {
    // Running: its pages so far. Deleted meanwhile (with its monitor, or past its retention): nothing of it is
    // written again.
    const pages: MonitorCheckPage[] = [];
    await eachPage(id, check, seen, { add: (page) => pages.push(page) });
    const summary = summaryOf(pages);
    return seen.running
      ? { status: 'running', finishedAt: null, summary, pages }
      : { status, finishedAt, summary, pages };
  }
  // Closing: its pages go to the store a chunk at a time, each judged first when the check has a goal and a model.
  const model = ctx.options.llm;
  const goal = check.goal;
  const judge =
    goal !== undefined && model ? (inputs: JudgedInput[]) => judgePages(ctx.llm, model, goal, inputs) : undefined;
  const writer = new PageChunks(store, id, finishedAt, judge);
  const searched = await eachPage(id, check, seen, writer);
  const chunks = await writer.finish();
  const closed: Closed = { status, finishedAt, summary: summaryOfChunks(chunks), chunks };
  const done = { ...check, errors, closed };
  await writeCheck(store, id, done);
  await queueSearchChanges(store, jobs, done, searched, ctx.queued);
  await queueCheckCompleted(store, jobs, id, done, await readMonitor(store, check.monitorId), ctx.queued);
  return closed;
}

/**
 * Every crawl of a firing followed by the scheduler ended: once the batches of its search targets have ended too
 * (unless `closing` aborts the wait), closes the monitor's check (when it is one).
 */
export async function settleCheck(
  ctx: CheckContext,
  jobs: JobManager,
  monitorId: string,
  run: ScheduleRun,
  closing?: AbortSignal,
): Promise<void> {
  const id = checkIdOf(monitorId, run);
  const check = await readCheck(ctx.store, id);
  if (!check || check.closed) return;
  for (const { batchId } of check.searches ?? []) {
    if (batchId !== null) await jobs.wait(batchId, closing).catch(() => undefined);
  }
  if (!closing?.aborted) await checkState(ctx, jobs, id, check);
}

export function summaryOf(pages: MonitorCheckPage[]): MonitorSummary {
  const summary: MonitorSummary = { totalPages: pages.length, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const page of pages) summary[page.status]++;
  return summary;
}

/** Makes the check's pages of one job's target, each with an id derived from the job and its URL. */
function pageMaker(jobId: string, checkId: string, targetId: string): PageMaker {
  return (url, fields) => ({
    id: uuidV5(`${jobId}\n${url}`, checkId),
    targetId,
    url,
    currentScrapeId: null,
    statusCode: null,
    error: null,
    diff: null,
    ...fields,
  });
}

/**
 * A crawl's pages as a check's, given to `sink` as they are read: its stored pages with their change, its removed
 * pages, then its failed pages; each changed and new page with what a model would judge of it (its diff, its markdown).
 */
export async function feedPages(
  store: Store,
  jobId: string,
  checkId: string,
  targetId: string,
  sink: PageSink,
): Promise<void> {
  const page = pageMaker(jobId, checkId, targetId);
  for await (const { document: doc } of storedDocuments(store, jobId)) {
    const { metadata } = doc;
    if (!metadata.crawlChange) {
      // An error answer that says nothing of the page (a 500): no change in the feed, an error of the check.
      if (metadata.statusCode >= 400 && !pageGone(metadata.statusCode)) {
        const error = `The page answered ${metadata.statusCode}: it was not compared.`;
        await sink.add(page(metadata.sourceURL, { status: 'error', statusCode: metadata.statusCode, error }));
      }
      continue;
    }
    const diff = metadata.crawlChange === 'changed' ? doc.changeTracking?.diff : undefined;
    const made = page(feedUrl(metadata), {
      status: metadata.crawlChange,
      currentScrapeId: metadata.scrapeId ?? null,
      statusCode: metadata.statusCode,
      ...(diff ? { diff } : {}),
    });
    const text = metadata.crawlChange === 'new' ? doc.markdown : diff?.text;
    const judged = text && (metadata.crawlChange === 'new' || metadata.crawlChange === 'changed');
    await sink.add(made, judged ? text : undefined);
  }
  for (const url of (await completedChanges(store, jobId))?.removed ?? []) {
    await sink.add(page(url, { status: 'removed' }));
  }
  for (const failed of await failedPages(store, jobId)) {
    await sink.add(page(failed.url, { status: 'error', error: failed.error }));
  }
}
