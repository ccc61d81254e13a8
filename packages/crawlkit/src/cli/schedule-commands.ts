/**
 * Schedules on the command line (issue 41): `crawlkit crawl URL --every 6h` (or `--cron "0 *\/6 * * *"`) stores a
 * schedule of that crawl and runs the store's schedules in the foreground, printing each run's changes;
 * `crawlkit schedules list|delete <id>|run [id]` manages them.
 */
import { clearInterval, setInterval } from 'node:timers';
import { isDeepStrictEqual } from 'node:util';

import type { Command } from 'commander';

import type { ScheduleRequestInput, UpdateScheduleInput } from '../schedules/schedule-request.js';
import type { ScheduleView } from '../schedules/schedule-api.js';
import { readJsonArgument } from './file-arguments.js';
import { printChanges } from './change-report.js';
import { count } from './count.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { givenUpdateFlags, updateFlagsList } from './schedule-update-flags.js';

interface ScheduleFlags {
  every?: string;
  cron?: string;
  timezone?: string;
}

/** The flags that turn `crawlkit crawl` into a schedule. */
export function addScheduleFlags(command: Command): Command {
  return command
    .option('--every <interval>', 'crawl now and then every interval (30s, 15m, 6h, 1d), printing the changes')
    .option('--cron <expression>', 'crawl at the times of a cron expression (UTC, or --timezone), printing the changes')
    .option('--timezone <zone>', 'the time zone --cron is read in, e.g. Europe/Paris (default UTC)');
}

/**
 * Whether `crawlkit crawl` was asked for a schedule. Refuses `--timezone` without `--cron` (alone, or with `--every`),
 * naming the flags, rather than a crawl that ignores it or the schedule API's words about its fields.
 */
export function wantsSchedule(command: Command): boolean {
  const { every, cron, timezone } = command.opts<ScheduleFlags>();
  if (timezone !== undefined && cron === undefined) {
    throw new CliError(
      '--timezone applies to --cron: add --cron "<expression>"' +
        (every !== undefined ? ', or drop --timezone (an --every interval is the same in every time zone)' : ''),
    );
  }
  return every !== undefined || cron !== undefined;
}

/**
 * `crawlkit crawl URL --every|--cron`: stores a schedule whose one target is the crawl of `body` (its `--webhook` is
 * the schedule's webhook, one POST per change), then runs the schedules until Ctrl-C.
 */
export async function scheduleCrawl(
  ctx: CommandContext,
  body: Record<string, unknown>,
  command: Command,
): Promise<number> {
  const { every, cron, timezone } = command.opts<ScheduleFlags>();
  const { webhook, changes: _changes, ...crawl } = body;
  const request = {
    ...(every !== undefined ? { every } : {}),
    ...(cron !== undefined ? { cron } : {}),
    ...(timezone !== undefined ? { timezone } : {}),
    targets: [{ type: 'crawl', ...crawl }],
    ...(webhook !== undefined ? { webhook } : {}),
  } as ScheduleRequestInput;
  ctx.configure({ runSchedules: true });
  const { same, otherClocks } = await storedBefore(ctx, request);
  if (same) {
    ctx.note(`schedule ${same.id} of this crawl stored before: ${describe(same)}; going on with it`);
    if (hasHeaderValues(request)) {
      ctx.note(`  its header values are those stored: crawlkit schedules delete ${same.id} to store new ones`);
    }
    return runSchedules(ctx);
  }
  const created = await ctx.engine.schedules.create(request);
  if (!created.success) return ctx.fail(created);
  ctx.note(`schedule ${created.data.id} stored: ${describe(created.data)}`);
  for (const other of otherClocks) {
    ctx.note(`  schedule ${other.id} runs this crawl too (${clockOf(other)}): crawlkit schedules delete ${other.id}`);
  }
  return runSchedules(ctx);
}

/**
 * The stored schedule this command made before, when it is run again (after Ctrl-C, a reboot): the same clock, the
 * same crawl and the same webhook, header values aside (the store keeps them sealed). Another would crawl the site
 * twice as often, and compare each run with its own first one. With those of the same crawl on other clocks.
 */
async function storedBefore(
  ctx: CommandContext,
  request: ScheduleRequestInput,
): Promise<{ same?: ScheduleView | undefined; otherClocks: ScheduleView[] }> {
  const { scheduleRequestSchema } = await import('../schedules/schedule-request.js');
  const { hideJobSecrets } = await import('../jobs/job-secrets.js');
  const parsed = scheduleRequestSchema.safeParse(request);
  // A request the schedule API refuses is told by its create.
  if (!parsed.success) return { otherClocks: [] };
  const { every, cron, timezone, targets, webhook } = parsed.data;
  const crawl = {
    targets: targets.map((target) => hideJobSecrets({ request: target }).request),
    webhook: webhook && hideJobSecrets({ request: {}, webhook }).webhook,
  };
  const listed = await ctx.engine.schedules.list();
  if (!listed.success) return { otherClocks: [] };
  const ofCrawl = listed.data.filter((view) =>
    isDeepStrictEqual(crawl, { targets: view.targets, webhook: view.webhook }),
  );
  const sameClock = (view: ScheduleView) => view.every === every && view.cron === cron && view.timezone === timezone;
  return { same: ofCrawl.find(sameClock), otherClocks: ofCrawl.filter((view) => !sameClock(view)) };
}

function hasHeaderValues(request: ScheduleRequestInput): boolean {
  const target = request.targets[0] as { scrapeOptions?: { headers?: object } };
  const webhook = request.webhook as { headers?: object } | string | undefined;
  const some = (headers: object | undefined) => headers !== undefined && Object.keys(headers).length > 0;
  return some(target.scrapeOptions?.headers) || (typeof webhook === 'object' && some(webhook.headers));
}

const ACTIONS = ['list', 'update', 'pause', 'resume', 'delete', 'run'];

/** `crawlkit schedules list|update <id>|pause <id>|resume <id>|delete <id>|run [id]`. */
export async function schedulesCommand(
  ctx: CommandContext,
  action: string,
  id: string | undefined,
  command: Command,
): Promise<number> {
  if (!ACTIONS.includes(action)) {
    throw new CliError(
      `Unknown action "${action}": use list, update <id>, pause <id>, resume <id>, delete <id> or run [id]`,
    );
  }
  const given = givenUpdateFlags(command);
  if (action === 'update' && given.length === 0) {
    throw new CliError(`crawlkit schedules update needs what to change: ${updateFlagsList()}`);
  }
  if (action !== 'update' && given.length > 0) {
    throw new CliError(`${given[0]!.name} goes with \`crawlkit schedules update <id>\`, not ${action}`);
  }
  // `--no-webhook` is `false`: the update's `null`, which removes the webhook.
  const changes = Object.fromEntries(
    given
      .filter(({ flag }) => flag.key !== 'targets')
      .map(({ flag, value }) => [flag.key, value === false ? null : value]),
  ) as UpdateScheduleInput;
  const targetFlags = command.opts<TargetFlags>();
  const targets = targetsOf(targetFlags);
  if (targets) changes.targets = targets;
  if (action !== 'list' && action !== 'run' && id === undefined) {
    throw new CliError(`crawlkit schedules ${action} needs the id of a schedule`);
  }
  // A store that is not there holds no schedule, and opening it would make the directory: say so instead. Running
  // them all on their clocks opens it, as a schedule another process stores there is run.
  if (ctx.storeMissing && (action !== 'run' || id !== undefined)) return noStore(ctx, action);
  if (action === 'run') {
    await ctx.load();
    if (id !== undefined) return runScheduleNow(ctx, id);
    ctx.configure({ runSchedules: true });
    return runSchedules(ctx);
  }
  if (action === 'pause' || action === 'resume' || action === 'update') {
    await ctx.load();
    const changed =
      action === 'update' ? await ctx.engine.schedules.update(id!, changes) : await ctx.engine.schedules[action](id!);
    if (!changed.success) return ctx.fail(changed);
    if (ctx.mode === 'text') ctx.write(listLine(changed.data));
    else ctx.writeJson(changed);
    return EXIT.ok;
  }
  if (action === 'delete') {
    await ctx.load();
    const deleted = await ctx.engine.schedules.delete(id!);
    if (!deleted.success) return ctx.fail(deleted);
    ctx.note(`schedule ${id} deleted`);
    return EXIT.ok;
  }
  await ctx.load();
  const listed = await ctx.engine.schedules.list();
  if (!listed.success) return ctx.fail(listed);
  if (listed.warning) ctx.note(`warning: ${listed.warning}`);
  if (ctx.mode === 'json') ctx.writeJson(listed);
  else if (ctx.mode === 'ndjson') for (const schedule of listed.data) ctx.write(`${JSON.stringify(schedule)}\n`);
  else for (const schedule of listed.data) ctx.write(listLine(schedule));
  return EXIT.ok;
}

interface TargetFlags {
  crawl?: string[];
  scrape?: string[];
  targets?: string;
}

/**
 * The targets `schedules update` puts in place of the schedule's: the `--crawl` URLs, then the `--scrape` ones
 * (their options the API's defaults), or `--targets`, the API's array, for targets with options. The schedule API
 * checks them (a bad URL, an unknown option) with its usual words.
 */
function targetsOf(flags: TargetFlags): UpdateScheduleInput['targets'] {
  const urls = [
    ...(flags.crawl ?? []).map((url) => ({ type: 'crawl' as const, url })),
    ...(flags.scrape ?? []).map((url) => ({ type: 'scrape' as const, url })),
  ];
  if (flags.targets === undefined) return urls.length ? urls : undefined;
  if (urls.length) throw new CliError('--targets replaces every target: give it alone, or --crawl and --scrape alone');
  const targets = readJsonArgument(flags.targets, '--targets');
  if (!Array.isArray(targets)) {
    throw new CliError('--targets is a JSON array of targets, e.g. [{"type":"crawl","url":"https://example.com/"}]');
  }
  return targets as UpdateScheduleInput['targets'];
}

/** `schedules list`, `delete <id>` or `run <id>` where there is no store: no schedule, none made. */
function noStore(ctx: CommandContext, action: string): number {
  const where =
    `there is no store at ${ctx.storePlace} ` +
    '(a schedule is kept in the store of the command that made it: pass its --store)';
  if (action !== 'list') {
    return ctx.fail({ success: false, code: 'SCHEDULE_NOT_FOUND', error: `Schedule not found: ${where}` });
  }
  if (ctx.mode === 'json') ctx.writeJson({ success: true, data: [] });
  ctx.note(`no schedules: ${where}`);
  return EXIT.ok;
}

function clockOf(schedule: ScheduleView): string {
  if (schedule.every !== undefined) return `every ${schedule.every}`;
  return `cron "${schedule.cron}"${schedule.timezone !== undefined ? ` in ${schedule.timezone}` : ''}`;
}

/** Targets named on a line of `schedules list`; the rest are counted. */
const LISTED_TARGETS = 3;

function describe(schedule: ScheduleView): string {
  const clock = clockOf(schedule);
  const named = schedule.targets.slice(0, LISTED_TARGETS).map((t) => `${t.type} ${t.url}`);
  const more = schedule.targets.length - named.length;
  const targets = `${named.join(', ')}${more > 0 ? ` and ${count(more, 'more target')}` : ''}`;
  const next = schedule.status === 'paused' ? 'paused' : `next run ${schedule.nextRunAt ?? 'never'}`;
  return `${clock}, ${targets}; ${next}`;
}

/** A line of `schedules list`: its name, clock and targets, next run, and how its last run went. */
function listLine(schedule: ScheduleView): string {
  const name = schedule.name !== undefined ? `${JSON.stringify(schedule.name)}: ` : '';
  const run = schedule.lastRun;
  let last = '';
  if (run) {
    const skipped = run.skipped.length;
    const refused = run.errors.length - skipped;
    const how = [
      ...(refused > 0 ? [`${count(refused, 'target')} refused`] : []),
      ...(skipped > 0 ? [`${count(skipped, 'target')} skipped, still running`] : []),
    ];
    last = `; last run ${run.startedAt}${how.length > 0 ? ` (${how.join(', ')})` : ''}`;
  }
  return `${schedule.id}  ${name}${describe(schedule)}${last}\n`;
}

/** The crawls a run started: not a skipped target's, which is its previous crawl, still running (told in `errors`). */
function startedCrawls(run: { jobIds: (string | null)[]; skipped: number[] }): string {
  return run.jobIds.filter((jobId, target) => jobId !== null && !run.skipped.includes(target)).join(', ') || 'none';
}

/** Runs the store's schedules in this process until Ctrl-C, printing each run and its changes. */
async function runSchedules(ctx: CommandContext): Promise<number> {
  const engine = ctx.engine;
  let printing = Promise.resolve();
  engine.on('schedule:run', (run) => {
    ctx.note(`schedule ${run.id} fired: crawl ${startedCrawls(run)}`);
    for (const error of run.errors) ctx.note(`  ${error}`);
  });
  engine.on('schedule:changes', ({ jobId }) => {
    printing = printing.then(() => printChanges(ctx, jobId));
  });
  // The runtime (and its scheduler) starts on the first call.
  const listed = await engine.schedules.list();
  if (!listed.success) return ctx.fail(listed);
  ctx.note(`running ${listed.data.length} schedule(s) of ${ctx.storePlace}; Ctrl-C stops (they stay in the store)`);
  // The scheduler's timers do not hold the process: this does, until Ctrl-C.
  const alive = setInterval(() => undefined, 2 ** 30);
  if (!ctx.signal.aborted) {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  }
  clearInterval(alive);
  await printing;
  return EXIT.ok;
}

/**
 * `crawlkit schedules run <id>`: that schedule now, out of its clock (its next firing stays), in this process; waits
 * for its crawls and prints their changes. Ctrl-C leaves them resumable.
 */
async function runScheduleNow(ctx: CommandContext, id: string): Promise<number> {
  const engine = ctx.engine;
  const ended = new Map<string, string>();
  const waiting = new Map<string, () => void>();
  const onCompleted = ({ id: jobId, status }: { id: string; status: string }) => {
    ended.set(jobId, status);
    waiting.get(jobId)?.();
  };
  // Listening before the run starts: a crawl that ends at once is not missed.
  engine.on('job:completed', onCompleted);
  try {
    const run = await engine.schedules.run(id);
    if (!run.success) return ctx.fail(run);
    const { jobIds, skipped, errors } = run.data;
    ctx.note(`schedule ${id} ran: crawl ${startedCrawls(run.data)}`);
    for (const error of errors) ctx.note(`  ${error}`);
    let failed = false;
    for (const [target, jobId] of jobIds.entries()) {
      if (jobId === null || skipped.includes(target)) continue;
      if (!ended.has(jobId)) {
        await new Promise<void>((resolve) => {
          waiting.set(jobId, resolve);
          ctx.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
      if (ctx.signal.aborted) return EXIT.interrupted;
      const status = ended.get(jobId);
      if (status === 'completed') await printChanges(ctx, jobId);
      else {
        failed = true;
        ctx.note(`crawl ${jobId} ${status ?? 'did not end'}`);
      }
    }
    return failed ? EXIT.failure : EXIT.ok;
  } finally {
    engine.off('job:completed', onCompleted);
  }
}
