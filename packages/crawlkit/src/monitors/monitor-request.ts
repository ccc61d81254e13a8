/**
 * The bodies of `POST /v2/monitor` and `PATCH /v2/monitor/:id` (the shapes of the 2026 clients' `CreateMonitorRequest`
 * and `UpdateMonitorRequest`). What crawlkit cannot do locally (email) is refused, never ignored.
 */
import { z } from 'zod';

import { cronProblem, knownTimeZone } from '../schedules/schedule-clock.js';
import { headersSchema } from '../v2/headers.js';
import { CHECK_COMPLETED } from './monitor-events.js';
import { SCHEDULE_TEXT_FORMS, cronOfText } from './schedule-text.js';

const options = z.record(z.string(), z.unknown());

const scrapeTargetSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  type: z.literal('scrape'),
  urls: z.array(z.string()).min(1).max(100),
  scrapeOptions: options.optional(),
});

const crawlTargetSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  type: z.literal('crawl'),
  url: z.string(),
  crawlOptions: options.optional(),
  scrapeOptions: options.optional(),
});

/**
 * A `search` target (the clients' `MonitorSearchTarget`): each check runs its queries through the engine's search,
 * compares the results with the previous check's and scrapes their pages (`scrapeOptions`, crawlkit's own) for diffs.
 */
const searchTargetSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  type: z.literal('search'),
  queries: z.array(z.string().trim().min(1)).min(1).max(10),
  /** How recent the results must be (the search's `tbs`; a window under an hour searches the last hour). */
  searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  /** Results kept per query. @default 10 */
  maxResults: z.number().int().min(1).max(100).optional(),
  /** How each result's page is scraped (formats, headers, ...). @default markdown */
  scrapeOptions: options.optional(),
});

export type MonitorTargetInput =
  z.output<typeof scrapeTargetSchema> | z.output<typeof crawlTargetSchema> | z.output<typeof searchTargetSchema>;

const TARGET_SCHEMAS = { scrape: scrapeTargetSchema, crawl: crawlTargetSchema, search: searchTargetSchema };

const targetSchema = z.looseObject({ type: z.string() }).transform((target, ctx): MonitorTargetInput => {
  const schema: z.ZodType<MonitorTargetInput> | undefined = Object.hasOwn(TARGET_SCHEMAS, target.type)
    ? TARGET_SCHEMAS[target.type as keyof typeof TARGET_SCHEMAS]
    : undefined;
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `A target's \`type\` must be "scrape", "crawl" or "search", got ${JSON.stringify(target.type)}.`,
    });
    return z.NEVER;
  }
  const parsed = schema.safeParse(target);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  }
  return parsed.data;
});

const scheduleSchema = z
  .strictObject({
    /** Five fields (minute hour day month weekday), or six with seconds first, read in `timezone`. */
    cron: z.string().optional(),
    /** One of `SCHEDULE_TEXT_FORMS`, normalised to `cron`. */
    text: z.string().optional(),
    /** An IANA time zone such as "Europe/Paris". @default 'UTC' */
    timezone: z.string().optional(),
  })
  .transform((schedule, ctx) => {
    const fromText = schedule.text === undefined ? undefined : cronOfText(schedule.text);
    if (schedule.text !== undefined && fromText === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: `\`schedule.text\` "${schedule.text}" is not a form crawlkit reads: write one of ${SCHEDULE_TEXT_FORMS}, or give \`schedule.cron\`.`,
      });
      return z.NEVER;
    }
    const cron = schedule.cron?.trim().replace(/\s+/g, ' ') ?? fromText;
    if (cron === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['cron'],
        message: 'A monitor needs `schedule.cron` (e.g. "*/30 * * * *") or `schedule.text` (e.g. "every 30 minutes").',
      });
      return z.NEVER;
    }
    if (fromText !== undefined && schedule.cron !== undefined && cron !== fromText) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: `\`schedule.text\` "${schedule.text}" is "${fromText}" as cron, and \`schedule.cron\` is "${cron}": give one of them.`,
      });
      return z.NEVER;
    }
    const timezone = schedule.timezone ?? 'UTC';
    if (!knownTimeZone(timezone)) {
      ctx.addIssue({
        code: 'custom',
        path: ['timezone'],
        message: `\`schedule.timezone\` "${timezone}" is not a time zone: give an IANA name such as "UTC" or "Europe/Paris".`,
      });
      return z.NEVER;
    }
    const problem = cronProblem(cron);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['cron'], message: problem.replace('`cron`', '`schedule.cron`') });
      return z.NEVER;
    }
    return { cron, timezone, ...(schedule.text !== undefined ? { text: schedule.text } : {}) };
  });

export type MonitorSchedule = z.output<typeof scheduleSchema>;

/**
 * The webhook events a monitor takes: upstream's per-page event (or the change kinds of a schedule's webhook), and
 * `monitor.check.completed`, once per closed check.
 */
const PAGE_EVENTS = { 'monitor.page': ['new', 'changed', 'removed'] } as const;
const CHANGE_KINDS = ['new', 'changed', 'removed', 'same'] as const;
export type MonitorWebhookEvent = (typeof CHANGE_KINDS)[number] | typeof CHECK_COMPLETED;

const webhookSchema = z.strictObject({
  url: z.string(),
  headers: headersSchema('webhook header').optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  events: z
    .array(z.string())
    .optional()
    .transform((events, ctx) => {
      if (events === undefined || events.length === 0) return undefined;
      const kinds = new Set<string>();
      for (const event of events) {
        if (event in PAGE_EVENTS) PAGE_EVENTS[event as keyof typeof PAGE_EVENTS].forEach((k) => kinds.add(k));
        else if ((CHANGE_KINDS as readonly string[]).includes(event) || event === CHECK_COMPLETED) kinds.add(event);
        else {
          ctx.addIssue({
            code: 'custom',
            message:
              `\`webhook.events\` "${event}" is not sent by crawlkit: give "monitor.page" (one POST per new, changed ` +
              'or removed page) or the change kinds "new", "changed", "removed", "same", and "monitor.check.completed" ' +
              '(one POST per check).',
          });
          return z.NEVER;
        }
      }
      return [...kinds] as MonitorWebhookEvent[];
    }),
});

export type MonitorWebhookInput = z.output<typeof webhookSchema>;

const notificationSchema = z
  .strictObject({ email: z.looseObject({ enabled: z.boolean().optional() }).optional() })
  .nullable()
  .superRefine((notification, ctx) => {
    if (notification?.email && notification.email.enabled !== false) {
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message:
          '`notification.email` is not offered: crawlkit sends no email. Give a `webhook` ({ url }) to be told of ' +
          'each changed page, or read the checks (GET /v2/monitor/:id/checks).',
      });
    }
  });

const common = {
  webhook: webhookSchema.nullable().optional(),
  notification: notificationSchema.optional(),
  /**
   * Days a check is kept for: older ones are deleted, with their pages, as the monitor's next check is added.
   * @default 30
   */
  retentionDays: z.number().int().min(1).max(365).optional(),
  /**
   * What the changes matter for: with a model configured, each changed and new page of a check gets the model's
   * `judgment` against it. An empty goal (or `null` in an update) is none.
   */
  goal: z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .transform((goal) => (goal === undefined ? undefined : goal?.trim() || null)),
  /** Whether a check's pages are judged against `goal`. @default true (with a goal) */
  judgeEnabled: z.boolean().optional(),
  /** Set by the JavaScript SDK on every body. */
  origin: z.string().optional(),
  integration: z.string().optional(),
};

/** A monitor's targets: one to 100, their ids (each keeps its pages' history under it) unique. */
const targetsSchema = z
  .array(targetSchema)
  .min(1)
  .max(100)
  .superRefine((targets, ctx) => {
    const seen = new Map<string, number>();
    targets.forEach((target, index) => {
      if (target.id === undefined) return;
      const first = seen.get(target.id);
      if (first === undefined) seen.set(target.id, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message:
            `\`targets[${index}].id\`: "${target.id}" is the id of targets[${first}] too: give each target its ` +
            'own id, or none.',
        });
    });
  });

export const createMonitorSchema = z.strictObject({
  name: z.string().min(1).max(256),
  schedule: scheduleSchema,
  targets: targetsSchema,
  ...common,
});

export const updateMonitorSchema = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: scheduleSchema.optional(),
  targets: targetsSchema.optional(),
  ...common,
});

export type CreateMonitorInput = z.input<typeof createMonitorSchema>;
export type UpdateMonitorInput = z.input<typeof updateMonitorSchema>;
export type UpdateMonitorRequest = z.output<typeof updateMonitorSchema>;
