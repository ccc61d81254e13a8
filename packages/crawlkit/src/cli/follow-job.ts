import { clearInterval, setInterval } from 'node:timers';
import type { JobKind } from '@crawlkit/store';

import type { CrawlkitEvents } from '../events.js';
import type { CrawlErrorsResponse, Document, ErrorResponse, JobStatusResponse } from '../v2/types.js';
import type { CommandContext } from './context.js';
import { count } from './count.js';
import { EXIT, ReaderGone } from './errors.js';
import { OutDir } from './out-dir.js';
import { PageOutput } from './page-output.js';
import { PrintedMark } from './printed-mark.js';
import { createProgress } from './progress.js';
import { VERSION } from './version.js';
import { withFlags } from './option-flags.js';
import { retryStoreFaults } from '../store-faults.js';

export interface FollowOptions {
  id: string;
  kind: JobKind;
  /** The command line's command, for the manifest. */
  command: string;
  input: string | string[];
  /**
   * Ask the engine to resume the job every few seconds while it runs nowhere: a process killed with `kill -9` holds
   * the job's lease until it expires (30 s), and the first `resumeJob` finds it taken.
   */
  keepResuming?: boolean;
  /**
   * The job's first documents (in completion order) that stdout does not print: a resumed job's pages that the
   * interrupted run printed already. They still go to the `--out` directory, so that it holds the whole job.
   * @default 0
   */
  skip?: number;
  /** A batch's URLs skipped as invalid: in `--json`'s answer and the `--out` manifest, which list them all. */
  invalidURLs?: string[];
}

const RESUME_RETRY_MS = 5_000;

/** Failures the summary lists on stderr; `crawlkit status <id> --errors` lists them all. */
const LISTED_FAILURES = 20;
/** Pages that answered an HTTP error named after the summary (the others counted). */
const LISTED_HTTP_ERRORS = 5;
/** Pages robots.txt disallowed named after the summary (the others counted). */
const LISTED_ROBOTS_BLOCKED = 5;
/** Pages with a warning the summary names (a PDF cut at its page cap, a feature the engine lacks). */
const LISTED_WARNINGS = 5;

/** Status of a job of either kind. */
export function jobStatus(
  ctx: CommandContext,
  kind: JobKind,
  id: string,
  pagination: { skip?: number; limit?: number } = {},
): Promise<JobStatusResponse | ErrorResponse> {
  return kind === 'crawl' ? ctx.engine.getCrawlStatus(id, pagination) : ctx.engine.getBatchScrapeStatus(id, pagination);
}

function jobErrors(ctx: CommandContext, kind: JobKind, id: string): Promise<CrawlErrorsResponse | ErrorResponse> {
  return kind === 'crawl' ? ctx.engine.getCrawlErrors(id) : ctx.engine.getBatchScrapeErrors(id);
}

/**
 * Where the job's documents go, in completion order: the first `skip` to the `--out` directory only, the rest to
 * every output. Counts what it saw and what it printed.
 */
class PageDelivery {
  seen = 0;
  printed = 0;

  readonly output: PageOutput;
  readonly skip: number;
  readonly mark: PrintedMark;
  /** Whether pages go to stdout as they come (not `--json`, which prints them at the end). */
  readonly #streams: boolean;

  constructor(output: PageOutput, skip: number, mark: PrintedMark, streams: boolean) {
    this.output = output;
    this.skip = skip;
    this.mark = mark;
    this.#streams = streams;
    mark.set(skip);
  }

  async next(document: Document): Promise<void> {
    if (this.seen++ < this.skip) return this.output.file(document);
    // Resolves once stdout has the page, which also keeps a slow reader from piling pages up in memory.
    await this.output.page(document);
    this.printed++;
    if (this.#streams) this.mark.set(this.seen);
  }
}

/** Delivers the job's stored documents past those `delivery` saw. */
async function deliverStored(ctx: CommandContext, options: FollowOptions, delivery: PageDelivery): Promise<void> {
  for (;;) {
    const status = await jobStatus(ctx, options.kind, options.id, { skip: delivery.seen });
    if (!status.success || status.data.length === 0) return;
    for (const document of status.data) await delivery.next(document);
  }
}

/**
 * Hands each document of the job past those `delivery` saw to `take`, until the job ends. A store that does not answer
 * for now (Redis restarting or paused, `REDIS_UNAVAILABLE`; a busy or failing disk, `STORE_IO`, `STORE_BUSY`) is
 * waited out as the job's own work waits it out, with a note when it starts and when it ends, and the watch goes on
 * from the next page: following a job must not end with the job still running (before, a Redis restart of a few
 * seconds ended `crawl --redis` with exit 1 while its workers went on). Ctrl-C still stops it at once.
 */
async function watchThroughStoreFaults(
  ctx: CommandContext,
  id: string,
  delivery: PageDelivery,
  take: (document: Document) => Promise<void>,
): Promise<void> {
  let waiting = false;
  await retryStoreFaults(
    async () => {
      for await (const document of ctx.engine.watch(id, { signal: ctx.signal, skip: delivery.seen })) {
        if (waiting) {
          ctx.note(`note: ${kindOfStore(ctx)} answers again: following ${id}`);
          waiting = false;
        }
        await take(document);
      }
    },
    ctx.signal,
    (error) => {
      if (waiting) return;
      waiting = true;
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: string }).code;
      ctx.note(
        `note: ${message} (${code}). Still following ${id}: it goes on once ${kindOfStore(ctx)} answers ` +
          '(Ctrl-C stops following, not the job)',
      );
    },
  );
}

/** The first `max` of `items`, comma-separated, and how many more there are. */
function listedInline(items: readonly string[], max: number): string {
  const more = items.length > max ? `, … ${items.length - max} more` : '';
  return `${items.slice(0, max).join(', ')}${more}`;
}

/** What the notes call the command's store. */
function kindOfStore(ctx: CommandContext): string {
  return ctx.redis ? 'Redis' : 'the store';
}

/**
 * Streams a running job's pages to the outputs as they are stored, with a progress bar on a terminal, until the job
 * ends. Ctrl-C stops it without cancelling the job: what was scraped is kept and `crawlkit resume <id>` goes on.
 */
export async function followJob(ctx: CommandContext, options: FollowOptions): Promise<number> {
  const { id, kind } = options;
  const engine = ctx.engine;
  const startedAt = new Date().toISOString();
  const outDir = ctx.options.out
    ? new OutDir(ctx.options.out, {
        version: VERSION,
        command: options.command,
        input: options.input,
        jobId: id,
        status: 'scraping',
        startedAt,
        ...(options.invalidURLs?.length ? { invalidURLs: options.invalidURLs } : {}),
      })
    : undefined;
  const output = new PageOutput(ctx, { multi: true, ...(outDir ? { outDir } : {}) });
  const progress = createProgress({ stream: ctx.io.stderr, quiet: ctx.options.quiet ?? false, label: kind });

  let errors = 0;
  const onProgress = (event: CrawlkitEvents['progress'][0]) => {
    if (event.id === id) progress.update({ completed: event.completed, total: event.total });
  };
  const onError = (event: CrawlkitEvents['error'][0]) => {
    if (event.jobId === id) progress.update({ errors: ++errors });
  };
  engine.on('progress', onProgress);
  engine.on('error', onError);

  const initial = await jobStatus(ctx, kind, id, { limit: 1 });
  if (initial.success) progress.update({ completed: initial.completed, total: initial.total });

  const retry = options.keepResuming
    ? setInterval(() => void engine.resumeJob(id).catch(() => undefined), RESUME_RETRY_MS)
    : undefined;
  const mark = new PrintedMark(ctx.jobsDir, id);
  const delivery = new PageDelivery(output, options.skip ?? 0, mark, ctx.mode !== 'json');
  // Pages that answered an HTTP error are pages of the job (as v2 counts them), told after the summary.
  const httpErrors: string[] = [];
  const warned: string[] = [];
  try {
    await watchThroughStoreFaults(ctx, id, delivery, async (document) => {
      const { statusCode, sourceURL } = document.metadata;
      // An error page's warning (most often: no main content on it) says less than its status, already named.
      if (statusCode >= 400) httpErrors.push(`${statusCode} ${sourceURL}`);
      else if (document.warning) warned.push(`${sourceURL}: ${withFlags(document.warning)}`);
      await delivery.next(document);
    });
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
  } finally {
    clearInterval(retry);
    progress.stop();
    engine.off('progress', onProgress);
    engine.off('error', onError);
  }

  if (ctx.signal.aborted) {
    // Stop running pages but leave the job resumable (a cancel could not be resumed). A page fetched before Ctrl-C is
    // stored while the engine closes: it is printed too, since a resume prints only the pages stored after this run.
    await ctx.reopen();
    await deliverStored(ctx, options, delivery);
    await ctx.close();
    const pages = delivery.printed;
    if (ctx.mode === 'json') {
      ctx.writeJson({ success: true, id, status: 'scraping', completed: pages, data: output.documents });
      mark.set(delivery.seen);
    }
    // The directory has every page seen (a resume's earlier ones too); stdout, those printed.
    await outDir?.finish({ status: 'interrupted', finishedAt: new Date().toISOString(), completed: delivery.seen });
    // On Redis the job's workers go on with it: the command only stops following.
    const next = ctx.redis ? 'Its workers go on with it; follow it again with' : 'Resume with';
    // The same output, with the pages to come (appended to an --out file); --json's one document is printed whole.
    // The engine is this command's, not the job's: a resume without --engine browser would fetch in auto mode.
    const engine = ctx.options.engine ? ` --engine ${ctx.options.engine}` : '';
    const flags = `${engine}${ctx.mode === 'json' ? ' --all' : ''}${ctx.outputFlags()}`;
    const kept = ctx.options.out ?? ctx.outFile;
    const resume = ctx.jobKept
      ? `${next}:\n  crawlkit resume ${id}${ctx.whereFlags()}${flags}\n`
      : 'The job is gone with it (--store memory keeps nothing after its command): a --store directory can resume.\n';
    ctx.io.stderr.write(
      `\n${ctx.signal.reason instanceof ReaderGone ? 'Stopped, the reader of the output went away' : 'Interrupted'}: ` +
        `${count(delivery.seen, 'page')} kept${kept ? ` in ${kept}` : ''}. ${resume}`,
    );
    return EXIT.interrupted;
  }

  const pages = delivery.printed;
  const [status, errorList] = await Promise.all([jobStatus(ctx, kind, id, { limit: 1 }), jobErrors(ctx, kind, id)]);
  if (!status.success) return ctx.fail(status);
  const failures = 'errors' in errorList ? errorList.errors : [];
  const failed = failures.map((e) => ({ url: e.url, error: e.error, ...(e.code ? { code: e.code } : {}) }));
  // A crawl's pages that robots.txt kept it from (the status's warning says only that there were some).
  const robotsBlocked = 'robotsBlocked' in errorList ? errorList.robotsBlocked : [];
  const blocked = robotsBlocked.length ? { robotsBlocked } : {};
  if (ctx.mode === 'json') {
    // With the job's id, as firecrawl-js's crawl() and batchScrape() answer; and the failed pages and the pages
    // robots.txt disallowed, which the v2 status leaves out (its total and completed count the pages stored), as
    // parse's answer and the manifest have.
    const { next: _next, success, ...rest } = status;
    const invalid = options.invalidURLs?.length ? { invalidURLs: options.invalidURLs } : {};
    ctx.writeJson({ success, id, ...rest, ...invalid, data: output.documents, errors: failed, ...blocked });
  }
  mark.remove();
  await outDir?.finish({
    status: status.status,
    finishedAt: new Date().toISOString(),
    total: status.total,
    completed: status.completed,
    creditsUsed: status.creditsUsed,
    ...(status.warning ? { warning: status.warning } : {}),
    errors: failed,
    ...blocked,
  });
  // A job that failed says why even with --quiet, as a failed scrape's error does: a cron job's log keeps the reason.
  const tell = (line: string) => (status.status === 'failed' ? ctx.explain(line) : ctx.note(line));
  tell(
    `${kind} ${id} ${status.status}: ${count(pages, 'page')}${delivery.skip ? ` since the resume (${status.completed} in all)` : ''}, ` +
      `${count(failures.length, 'error')}, ` +
      `${count(status.creditsUsed, 'credit')}${outDir ? `; written to ${ctx.options.out}` : ''}`,
  );
  // What the job's status warns of (a robots.txt or sitemap it could not read), as `crawlkit status` tells it.
  if (status.warning) tell(`  warning: ${withFlags(status.warning)}`);
  if (robotsBlocked.length) {
    ctx.note(
      `  note: robots.txt disallowed ${count(robotsBlocked.length, 'page')} ` +
        `(${listedInline(robotsBlocked, LISTED_ROBOTS_BLOCKED)}): not crawled; ` +
        `--ignore-robots-txt crawls them (the --json answer and the --out manifest list them all, as robotsBlocked)`,
    );
  }
  if (httpErrors.length) {
    ctx.note(
      `  note: ${count(httpErrors.length, 'page')} answered an HTTP error ` +
        `(${listedInline(httpErrors, LISTED_HTTP_ERRORS)}): stored with that ` +
        'statusCode, as v2 does; check the URL',
    );
  }
  if (warned.length) {
    ctx.note(`  note: ${count(warned.length, 'page')} came with a warning (the document's \`warning\`):`);
    for (const line of warned.slice(0, LISTED_WARNINGS)) ctx.note(`    ${line}`);
    if (warned.length > LISTED_WARNINGS) ctx.note(`    … ${warned.length - LISTED_WARNINGS} more`);
  }
  for (const failure of failures.slice(0, LISTED_FAILURES)) ctx.note(`  failed: ${failure.url}: ${failure.error}`);
  if (failures.length > LISTED_FAILURES) {
    const more = failures.length - LISTED_FAILURES;
    // A job of the memory store is gone with this command: `status` would answer JOB_NOT_FOUND.
    const where = ctx.jobKept
      ? `: crawlkit status ${id} --errors${ctx.whereFlags()}`
      : ' (--store memory keeps nothing after this command: the --json answer and the --out manifest list them all)';
    ctx.note(`  … and ${more} more${where}`);
  }
  if (status.status === 'failed' || status.status === 'cancelled') return EXIT.failure;
  // The job's pages, not this run's: a resume whose pages left all failed ends a job that has pages.
  return status.completed === 0 && failures.length > 0 ? EXIT.failure : ctx.doneExit(failures.length);
}
