import type { JobKind } from '@crawlkit/store';
import type { Command } from 'commander';

import type { BatchScrapeRequestInput, CrawlRequestInput, MapRequestInput } from '../v2/jobs.js';
import type { ScrapeRequestInput } from '../v2/scrape-options.js';
import type { ErrorResponse, JobStatusResponse } from '../v2/types.js';
import { buildBody, buildUrlBody } from './body-flags.js';
import { noteForgottenHistory, printChanges } from './change-report.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { count } from './count.js';
import { followJob, jobStatus } from './follow-job.js';
import { OutDir } from './out-dir.js';
import { PageOutput } from './page-output.js';
import { PrintedMark } from './printed-mark.js';
import { describeRedis } from './redis-settings.js';
import { scheduleCrawl, wantsSchedule } from './schedule-commands.js';
import { VERSION } from './version.js';
import { withFlags } from './option-flags.js';

type Flags = Record<string, unknown> & { body?: string };

function flags(command: Command): Flags {
  return command.opts<Flags>();
}

/** `crawlkit scrape <url>`: one page to stdout or `--out`. */
export async function scrapeCommand(ctx: CommandContext, url: string | undefined, command: Command): Promise<number> {
  const base = await ctx.readBody(flags(command).body);
  const body = buildUrlBody(command, 'recordedScrape', base, url);
  await ctx.load();
  const startedAt = new Date().toISOString();
  const response = await ctx.engine.scrape(body as unknown as ScrapeRequestInput, { signal: ctx.signal });
  const input = String(body.url);
  const outDir = ctx.options.out
    ? new OutDir(ctx.options.out, { version: VERSION, command: 'scrape', input, status: 'completed', startedAt })
    : undefined;
  if (!response.success) {
    if (ctx.signal.aborted) return EXIT.interrupted;
    // A failed flow's screenshots and the page it failed on are the run's evidence: kept under --out, as a page is.
    if (outDir && (await outDir.failure(input, response))) {
      await outDir.finish({ status: 'failed', finishedAt: new Date().toISOString(), total: 1, completed: 0 });
      ctx.note(`the failed action's evidence is written to ${ctx.options.out}`);
    }
    if (response.warcFile) ctx.note(`recorded to ${response.warcFile}`);
    return ctx.fail(response);
  }
  const output = new PageOutput(ctx, { multi: false, ...(outDir ? { outDir } : {}) });
  await output.page(response.data);
  if (ctx.mode === 'json') ctx.writeJson(response);
  await outDir?.finish({ finishedAt: new Date().toISOString(), total: 1, completed: 1 });
  // an error answer's warning starts with its status (`errorPageNote`)
  if (response.data.warning) ctx.note(`warning: ${withFlags(response.data.warning)}`);
  if (response.data.changeTracking) noteForgottenHistory(ctx);
  if (outDir) ctx.note(`written to ${ctx.options.out}`);
  if (response.data.metadata.warcFile) ctx.note(`recorded to ${response.data.metadata.warcFile}`);
  return EXIT.ok;
}

/** Tells where a job run with `--record` wrote its WARC file. */
async function noteRecording(ctx: CommandContext, kind: JobKind, id: string): Promise<void> {
  const status = await jobStatus(ctx, kind, id, { limit: 1 });
  if (status.success && status.warcFile) ctx.note(`recorded to ${status.warcFile}`);
}

/** Says a job started; on Redis, that the deployment's workers run it (and that none running means it waits). */
/**
 * Names the job as it starts, on stderr even with `--quiet` (stdout's `--json` answer comes at the end): the id that
 * `status`, `cancel` and `resume` take from another shell.
 */
function noteStarted(ctx: CommandContext, kind: JobKind, id: string): void {
  const where = ctx.redis
    ? ` queued in Redis at ${describeRedis(ctx.redis)}: its \`crawlkit worker\`s run it (it waits for one)`
    : ' started';
  ctx.io.stderr.write(`${kind} ${id}${where}\n`);
}

/** `crawlkit crawl <url>`: starts a crawl and follows it to the end. */
export async function crawlCommand(ctx: CommandContext, url: string | undefined, command: Command): Promise<number> {
  const base = await ctx.readBody(flags(command).body);
  const body = buildUrlBody(command, 'crawl', base, url);
  const schedule = wantsSchedule(command);
  const refused = await ctx.refusal('crawl', body);
  if (refused) return ctx.fail(refused);
  await ctx.load();
  if (schedule) return scheduleCrawl(ctx, body, command);
  const started = await ctx.engine.crawl(body as unknown as CrawlRequestInput, { signal: ctx.signal });
  if (!started.success) return ctx.fail(started);
  noteStarted(ctx, 'crawl', started.id);
  const code = await followJob(ctx, { id: started.id, kind: 'crawl', command: 'crawl', input: String(body.url) });
  if (code === EXIT.ok && (body.changes === true || body.tag !== undefined)) {
    await printChanges(ctx, started.id);
    noteForgottenHistory(ctx);
  }
  if (body.record === true) await noteRecording(ctx, 'crawl', started.id);
  return code;
}

/**
 * Reads a batch input: one URL a line (`#` comments), a JSON array of URLs, or a whole v2 batch body. `lines`: for a
 * list of lines, the line number (from 1) of each URL, as `urls[i]` of an error names its index among the URLs.
 */
export function parseBatchInput(text: string): { urls?: string[]; lines?: number[]; body: Record<string, unknown> } {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new CliError(`The batch input is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    if (Array.isArray(value)) return { urls: value as string[], body: {} };
    return { body: value as Record<string, unknown> };
  }
  const urls: string[] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((raw, at) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    urls.push(line);
    lines.push(at + 1);
  });
  return { urls, lines, body: {} };
}

/** `crawlkit batch <file|->`: scrapes a list of URLs as one job. */
export async function batchCommand(ctx: CommandContext, file: string, command: Command): Promise<number> {
  const input = parseBatchInput(await ctx.readInput(file));
  const base = { ...(await ctx.readBody(flags(command).body)), ...input.body };
  const body = buildBody(command, 'batch', base, input.urls ? { urls: input.urls } : {});
  const refused = await ctx.refusal('batch', body);
  if (!refused) await ctx.load();
  const started =
    refused ?? (await ctx.engine.batchScrape(body as unknown as BatchScrapeRequestInput, { signal: ctx.signal }));
  if (!started.success) {
    const code = ctx.fail(started);
    const refusedAt = refusedUrls(started);
    if (input.lines && refusedAt.length) {
      const where = refusedAt.map((i) => `urls[${i}] is line ${input.lines![i]}`).slice(0, LISTED_INVALID);
      ctx.explain(`${where.join(', ')} of ${file === '-' ? 'the input' : file}`);
    }
    if (body.ignoreInvalidURLs !== true && refusedAt.length) {
      ctx.explain('--ignore-invalid-urls scrapes the valid URLs and names the ones it skips');
    }
    return code;
  }
  const invalidURLs = started.invalidURLs ?? [];
  if (invalidURLs.length) noteInvalid(ctx, invalidURLs);
  noteStarted(ctx, 'batch', started.id);
  const urls = Array.isArray(body.urls) ? (body.urls as string[]) : [];
  const code = await followJob(ctx, { id: started.id, kind: 'batch', command: 'batch', input: urls, invalidURLs });
  if (body.record === true) await noteRecording(ctx, 'batch', started.id);
  return code;
}

/** Invalid URLs the stderr note names; `--json` and the `--out` manifest list them all. */
const LISTED_INVALID = 20;

/** Names the batch's skipped lines on stderr: the first 20, and where the rest are (a long list had one huge line). */
function noteInvalid(ctx: CommandContext, invalid: string[]): void {
  const more = invalid.length - LISTED_INVALID;
  const rest = more > 0 ? `, … and ${more} more (all in --json's invalidURLs and --out's manifest.json)` : '';
  ctx.note(`skipped invalid URLs: ${invalid.slice(0, LISTED_INVALID).join(', ')}${rest}`);
}

/** The indexes of the URLs a batch was refused for (`urls[i]`), which `--ignore-invalid-urls` would have skipped. */
function refusedUrls(error: ErrorResponse): number[] {
  if (error.code !== 'BAD_REQUEST' || !Array.isArray(error.details)) return [];
  const at = (error.details as { path?: unknown[] }[]).map((issue) =>
    issue.path?.[0] === 'urls' && issue.path.length === 2 && typeof issue.path[1] === 'number' ? issue.path[1] : -1,
  );
  return [...new Set(at.filter((i) => i >= 0))];
}

/** `crawlkit map <url>`: the URLs of a site, one a line. */
export async function mapCommand(ctx: CommandContext, url: string | undefined, command: Command): Promise<number> {
  const base = await ctx.readBody(flags(command).body);
  const body = buildUrlBody(command, 'map', base, url);
  await ctx.load();
  const response = await ctx.engine.map(body as unknown as MapRequestInput, { signal: ctx.signal });
  if (!response.success) return ctx.signal.aborted ? EXIT.interrupted : ctx.fail(response);
  if (ctx.mode === 'json') ctx.writeJson(response);
  else if (ctx.mode === 'ndjson') for (const link of response.links) ctx.write(`${JSON.stringify(link)}\n`);
  else for (const link of response.links) ctx.write(`${link.url}\n`);
  if (response.warning) ctx.note(`warning: ${response.warning}`);
  return EXIT.ok;
}

/** Where a job is, when it is not in the store looked in. */
const PASS_STORE = '(a job is kept in the store of the command that started it: pass its --store)';
const PASS_REDIS = '(a deployment is its Redis URL and key prefix: pass the --redis-prefix its workers use)';

/** Finds which kind of job an id is: crawl or batch. */
async function findJob(
  ctx: CommandContext,
  id: string,
  pagination: { skip?: number; limit?: number } = { limit: 1 },
): Promise<{ kind: JobKind; status: JobStatusResponse } | ErrorResponse> {
  // A store that is not there holds no job, and opening it would make the directory: say so instead.
  if (ctx.storeMissing) {
    return {
      success: false,
      code: 'JOB_NOT_FOUND',
      error: `Job not found: there is no store at ${ctx.storePlace} ${PASS_STORE}`,
    };
  }
  await ctx.load();
  const crawl = await jobStatus(ctx, 'crawl', id, pagination);
  if (crawl.success) return { kind: 'crawl', status: crawl };
  if (crawl.code !== 'JOB_NOT_FOUND') return crawl;
  const batch = await jobStatus(ctx, 'batch', id, pagination);
  if (batch.success) return { kind: 'batch', status: batch };
  if (batch.code !== 'JOB_NOT_FOUND') return batch;
  // Each directory has its own store by default: a job started elsewhere is found with that command's --store.
  const where = ctx.redis
    ? `Redis at ${describeRedis(ctx.redis)} ${PASS_REDIS}`
    : `the store ${ctx.storePlace} ${PASS_STORE}`;
  return { ...batch, error: `Job not found in ${where}` };
}

/** `crawlkit status <id>`: a job's state; with `--json`, the v2 status response with a page of results. */
export async function statusCommand(ctx: CommandContext, id: string, command: Command): Promise<number> {
  const skip = integerFlag('--skip', command.opts<Flags>().skip, 0);
  const limit = integerFlag('--limit', command.opts<Flags>().limit, 0);
  const pagination = ctx.mode === 'text' ? { limit: 1 } : { ...(skip ? { skip } : {}), ...(limit ? { limit } : {}) };
  const found = await findJob(ctx, id, pagination);
  if ('success' in found) return ctx.fail(found);
  const { kind, status } = found;
  const listErrors = command.opts<Flags>().errors === true;
  if (ctx.mode !== 'text' && !listErrors) {
    ctx.writeJson(status);
    return EXIT.ok;
  }
  const errors = kind === 'crawl' ? await ctx.engine.getCrawlErrors(id) : await ctx.engine.getBatchScrapeErrors(id);
  if (listErrors) {
    if (!('errors' in errors)) return ctx.fail(errors);
    if (ctx.mode !== 'text') ctx.writeJson(errors);
    else ctx.write(errors.errors.map((e) => `${e.url}\t${e.code ?? ''}\t${e.error}\n`).join(''));
    return EXIT.ok;
  }
  const lines = [
    `id:          ${id}`,
    `kind:        ${kind}`,
    `status:      ${status.status}`,
    `progress:    ${status.completed}/${status.total} pages`,
    `errors:      ${'errors' in errors ? errors.errors.length : '?'}`,
    `credits:     ${status.creditsUsed}`,
    ...(status.createdAt ? [`created:     ${status.createdAt}`] : []),
    // When the job ended, named by how it ended (`cancelled:`, `failed:`), not always `completed:`.
    ...(status.completedAt ? [`${`${status.status}:`.padEnd(13)}${status.completedAt}`] : []),
    `expires:     ${status.expiresAt}`,
  ];
  ctx.write(`${lines.join('\n')}\n`);
  if (status.warning) ctx.note(`warning: ${withFlags(status.warning)}`);
  if (status.status === 'scraping') ctx.note(`\nFollow or resume it with: crawlkit resume ${id}${ctx.whereFlags()}`);
  return EXIT.ok;
}

/** `crawlkit cancel <id>`: cancels a crawl or batch; what was scraped is kept. */
export async function cancelCommand(ctx: CommandContext, id: string): Promise<number> {
  const found = await findJob(ctx, id);
  if ('success' in found) return ctx.fail(found);
  const response = found.kind === 'crawl' ? await ctx.engine.cancelCrawl(id) : await ctx.engine.cancelBatchScrape(id);
  if ('success' in response && !response.success) return ctx.fail(response);
  if (ctx.mode !== 'text') ctx.writeJson(response);
  else ctx.write(`cancelled ${found.kind} ${id}\n`);
  return EXIT.ok;
}

/**
 * `crawlkit resume <id>`: goes on with an unfinished job in this process and follows it like `crawl`. Stdout (text,
 * `--ndjson`, `--json`'s data) has the pages completed after the resume, so that output appended to the interrupted
 * run's has each page once; `--all` prints the job's earlier pages too. `--out` always ends with the whole job.
 * A job that has ended (completed, failed, cancelled) has no pages to come: `--all` prints its pages, as it would
 * have after a resume (exit 1 for a failed or cancelled job); without it, the refusal names `--all`, unless the
 * command that ran it was killed before printing its last stored pages (`PrintedMark`): those are printed.
 */
export async function resumeCommand(ctx: CommandContext, id: string, command: Command): Promise<number> {
  const all = command.opts<Flags>().all === true;
  const found = await findJob(ctx, id);
  if ('success' in found) return ctx.fail(found);
  const resumed = await ctx.engine.resumeJob(id);
  const { completed, total } = found.status;
  // From the last page the command that ran it printed: one killed (kill -9) left pages stored but not printed.
  const mark = PrintedMark.read(ctx.jobsDir, id);
  const printed = Math.min(mark ?? completed, completed);
  if (!resumed.success && resumed.code === 'JOB_NOT_RESUMABLE') {
    if (!all && printed === completed) {
      return ctx.fail({
        ...resumed,
        error: `${resumed.error} To print its pages: crawlkit resume ${id} --all${ctx.whereFlags()}${ctx.outputFlags()}`,
      });
    }
    ctx.note(
      all
        ? `${found.kind} ${id} has ended: nothing to resume; --all prints its pages`
        : `${found.kind} ${id} has ended with ${count(completed - printed, 'page')} stored that its command did not ` +
            `print (it was killed): printing them (--all prints the ${printed} before)`,
    );
    return followJob(ctx, { id, kind: found.kind, command: 'resume', input: id, skip: resumeSkip(ctx, all, printed) });
  }
  if (!resumed.success) return ctx.fail(resumed);
  const skip = resumeSkip(ctx, all, printed);
  const where = ctx.outFile ? `${ctx.outFile} gets` : 'stdout has';
  const earlier = skip === 0 ? '' : ` (${where} the pages to come; --all prints the ${skip} before)`;
  // A job of a distributed deployment runs on its workers: this command follows it.
  const how = ctx.redis ? 'followed (its workers run it)' : 'resumed';
  ctx.note(`${found.kind} ${id} ${how} at ${completed}/${total} pages${earlier}`);
  return followJob(ctx, {
    id,
    kind: found.kind,
    command: 'resume',
    input: id,
    keepResuming: true,
    skip,
  });
}

/**
 * How many of a resumed job's first pages its output leaves out: those the interrupted command printed, unless `--all`.
 * An `--out page.md` is appended to; under `--json` it gets the whole job, one JSON document having no end to add to.
 */
function resumeSkip(ctx: CommandContext, all: boolean, printed: number): number {
  if (all) return 0;
  if (printed > 0 && ctx.outFile) {
    if (ctx.mode === 'json') {
      ctx.note(`--json --out ${ctx.outFile}: the file gets the whole job, one JSON document (as with --all)`);
      return 0;
    }
    ctx.appendToOutFile();
  }
  return printed;
}

/** `crawlkit cache clear|prune|vacuum`. */
export async function cacheCommand(ctx: CommandContext, action: string, command: Command): Promise<number> {
  if (action === 'clear') {
    if (ctx.storeMissing) {
      ctx.write(`cleared nothing: there is no store at ${ctx.storePlace}\n`);
      return EXIT.ok;
    }
    await ctx.load();
    const failed = await ctx.engine.cache.clear();
    if (failed) return ctx.fail(failed);
    ctx.write(`cleared the page cache in ${ctx.storeDir}\n`);
    return EXIT.ok;
  }
  if (action === 'prune') {
    const maxAge = integerFlag('--max-age', command.opts<Flags>().maxAge, 0);
    const historyMaxAge = integerFlag('--history-max-age', command.opts<Flags>().historyMaxAge, 0);
    if (ctx.storeMissing) {
      ctx.write(`pruned 0 cached pages: there is no store at ${ctx.storePlace}\n`);
      return EXIT.ok;
    }
    await ctx.load();
    const removed = await ctx.engine.cache.prune(maxAge !== undefined ? { maxAgeMs: maxAge } : {});
    if (typeof removed !== 'number') return ctx.fail(removed);
    let history = '';
    if (historyMaxAge !== undefined) {
      const histories = await ctx.engine.cache.pruneHistory({ maxAgeMs: historyMaxAge });
      if (typeof histories !== 'number') return ctx.fail(histories);
      history = ` and the change history of ${count(histories, 'page')}`;
    }
    ctx.write(`pruned ${count(removed, 'cached page')}${history} from ${ctx.storeDir}\n`);
    return EXIT.ok;
  }
  if (action === 'vacuum') return (await import('./cache-vacuum.js')).cacheVacuum(ctx);
  throw new CliError(`Unknown cache action "${action}": use clear, prune or vacuum`);
}
