/**
 * The body of `POST /v2/schedule` (crawlkit's own, issue 41): a clock (`every` or `cron`), one or more targets, each
 * the v2 body of a crawl or a scrape with its `type`, and an optional webhook called once per change of a run.
 */
import { z } from 'zod';

import { headersSchema } from '../v2/headers.js';
import { crawlRequestSchema, type CrawlRequestInput } from '../v2/jobs.js';
import { urlSchema } from '../v2/scrape-options.js';
import { cronProblem, intervalProblem, knownTimeZone, parseDuration, type ScheduleClock } from './schedule-clock.js';

/** The changes a schedule's webhook can ask for. */
export const SCHEDULE_CHANGE_EVENTS = ['new', 'changed', 'removed', 'same'] as const;
export type ScheduleChangeEvent = (typeof SCHEDULE_CHANGE_EVENTS)[number];

/** Crawl options a target may not set: the schedule sets them (`tag`, `changes`) or they cannot go with it. */
const SCHEDULE_OWNED = ['tag', 'changes', 'webhook', 'zeroDataRetention', 'modifiedSince'] as const;

const scheduleWebhookSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { url: v } : v),
  z.strictObject({
    url: urlSchema,
    headers: headersSchema('webhook header').default({}),
    metadata: z.record(z.string(), z.string()).default({}),
    /** The changes that are sent, one POST each. @default ['new', 'changed', 'removed'] */
    events: z.array(z.enum(SCHEDULE_CHANGE_EVENTS)).min(1).default(['new', 'changed', 'removed']),
  }),
);
export type ScheduleWebhook = z.output<typeof scheduleWebhookSchema>;

const targetSchema = z.looseObject({ type: z.enum(['crawl', 'scrape']), url: z.string() });

export const scheduleRequestSchema = z
  .strictObject({
    /** A name to recognise the schedule by; not unique. */
    name: z.string().min(1).max(256).optional(),
    /** An interval such as `30s`, `15m`, `6h`, `1d` or `1h30m` (at least 1s); the first run starts at once. */
    every: z.string().optional(),
    /** A cron expression (five fields, or six with seconds first), read by croner in `timezone`. */
    cron: z.string().optional(),
    /**
     * The IANA time zone `cron` is read in (`Europe/Paris`): `0 9 * * *` is 09:00 there, summer and winter alike.
     * @default 'UTC'
     */
    timezone: z.string().optional(),
    targets: z.array(targetSchema).min(1).max(100),
    webhook: scheduleWebhookSchema.optional(),
  })
  .superRefine((o, ctx) => {
    if (checkClock(o, ctx)) o.targets.forEach((target, i) => checkTarget(target, i, ctx));
  });

/** The clock of a schedule (`every`, or `cron` with its `timezone`): its checks, and the clock an update leaves. */
export const scheduleClockSchema = z
  .strictObject({ every: z.string().optional(), cron: z.string().optional(), timezone: z.string().optional() })
  .superRefine((o, ctx) => void checkClock(o, ctx));

/**
 * The body of `PATCH /v2/schedule/:id`: each field given replaces the schedule's (`every` or `cron` its clock, with
 * `timezone`; `targets` all of them); `null` removes the `name` or the `webhook`. The rest stays.
 */
export const updateScheduleSchema = z
  .strictObject({
    name: z.string().min(1).max(256).nullable().optional(),
    every: z.string().optional(),
    cron: z.string().optional(),
    /** With `cron`, or alone to read the schedule's cron expression in another zone. */
    timezone: z.string().optional(),
    targets: z.array(targetSchema).min(1).max(100).optional(),
    webhook: scheduleWebhookSchema.nullable().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.every !== undefined && o.cron !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['cron'],
        message: "Give one of `every` and `cron`: the one given replaces the schedule's clock.",
      });
    }
    o.targets?.forEach((target, i) => checkTarget(target, i, ctx));
  });

export type UpdateScheduleInput = z.input<typeof updateScheduleSchema>;
export type UpdateScheduleRequest = z.output<typeof updateScheduleSchema>;

/** Checks a clock: exactly one of `every` and `cron`, each usable, `timezone` a zone and with `cron`. */
function checkClock(o: { every?: string; cron?: string; timezone?: string }, ctx: z.RefinementCtx): boolean {
  if ((o.every === undefined) === (o.cron === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [o.every === undefined ? 'every' : 'cron'],
      message: 'A schedule needs exactly one of `every` (an interval such as "6h") and `cron` (e.g. "0 */6 * * *").',
    });
    return false;
  }
  const problem = o.every !== undefined ? intervalProblem(o.every) : cronProblem(o.cron!);
  if (problem) ctx.addIssue({ code: 'custom', path: [o.every !== undefined ? 'every' : 'cron'], message: problem });
  if (o.timezone !== undefined) {
    const zone =
      o.every !== undefined
        ? '`timezone` goes with `cron`: an interval (`every`) is the same in every time zone.'
        : knownTimeZone(o.timezone)
          ? undefined
          : `\`timezone\` "${o.timezone}" is not a time zone: give an IANA name such as "UTC" or "Europe/Paris".`;
    if (zone) ctx.addIssue({ code: 'custom', path: ['timezone'], message: zone });
  }
  return true;
}

export type ScheduleRequestInput = z.input<typeof scheduleRequestSchema>;
export type ScheduleRequest = z.output<typeof scheduleRequestSchema>;
export type ScheduleTarget = z.output<typeof targetSchema>;

/** The schedule's clock once the request is valid. */
export function clockOf(request: Pick<ScheduleRequest, 'every' | 'cron'> & { timezone?: string }): ScheduleClock {
  if (request.every !== undefined) return { every: request.every, intervalMs: parseDuration(request.every)! };
  return { cron: request.cron!, timezone: request.timezone };
}

/**
 * The crawl body a target runs as: a crawl target as it is; a scrape target as a crawl of its URL alone (`limit` 1,
 * no links or sitemap followed, robots.txt not read, as a scrape does not read it), its scrape options under
 * `scrapeOptions`. Each run is then a crawl job with the target's change feed.
 */
export function crawlBodyOf(target: ScheduleTarget): CrawlRequestInput {
  const { type, url, ...options } = target;
  if (type === 'crawl') {
    const { scrapeOptions, ...crawl } = options;
    return { url, ...crawl, scrapeOptions } as CrawlRequestInput;
  }
  return {
    url,
    limit: 1,
    maxDiscoveryDepth: 0,
    sitemap: 'skip',
    ignoreRobotsTxt: true,
    scrapeOptions: options,
  };
}

/** Checks a target as the crawl it runs as, its problems reported at the target's own paths. */
function checkTarget(target: ScheduleTarget, index: number, ctx: z.RefinementCtx): void {
  for (const key of SCHEDULE_OWNED) {
    if (key in target) {
      const why =
        key === 'zeroDataRetention'
          ? 'a schedule compares each run with the last, which keeps a hash of each page in the store; scrape or ' +
            'crawl with zeroDataRetention outside a schedule.'
          : "the schedule keeps each target's change feed (its own tag) and sends its own webhook.";
      ctx.addIssue({
        code: 'custom',
        path: ['targets', index, key],
        message: `\`targets[${index}].${key}\` cannot be set: ${why}`,
      });
    }
  }
  // The keys refused above are not checked again as the crawl's (a scrape target's would be 'unrecognized').
  const rest = Object.fromEntries(
    Object.entries(target).filter(([key]) => !(SCHEDULE_OWNED as readonly string[]).includes(key)),
  ) as ScheduleTarget;
  const parsed = crawlRequestSchema.safeParse(crawlBodyOf(rest));
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    // A scrape target's options are its own keys, not `scrapeOptions`.
    const path = target.type === 'scrape' && issue.path[0] === 'scrapeOptions' ? issue.path.slice(1) : issue.path;
    ctx.addIssue({ ...issue, path: ['targets', index, ...path] });
  }
}
