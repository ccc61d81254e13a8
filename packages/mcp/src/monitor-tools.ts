/**
 * firecrawl-mcp's eight `firecrawl_monitor_*` tools (3.26), answered by the engine's monitors (`ck.monitors`, what
 * `/v2/monitor` answers): the same parameters, the same defaults of its simple create form, the same annotations.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { CreateMonitorInput, UpdateMonitorInput } from 'crawlkit';
import { z } from 'zod';

import { nullable, withoutNulls } from './tool-params.js';
import type { ToolKit } from './tool-kit.js';

const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap'] as const;
const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;

const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: true } as const;
const id = z.string().describe("The monitor's id, as firecrawl_monitor_create or firecrawl_monitor_list answered it.");
const limit = z.number().int().positive().optional();
const offset = z.number().int().nonnegative().optional();

const createShape = nullable({
  body: z
    .record(z.string(), z.any())
    .optional()
    .describe('The advanced form: a whole POST /v2/monitor body (name, schedule, targets, goal, webhook, ...).'),
  page: z.string().optional().describe('A URL to watch.'),
  pages: z.array(z.string()).optional().describe('URLs to watch.'),
  queries: z.array(z.string()).optional().describe('Search queries to watch (page and pages are then ignored).'),
  searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
  maxResults: z.number().int().min(1).max(50).optional(),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  goal: z.string().optional().describe('What a meaningful change is, in plain words (the simple form needs it).'),
  name: z.string().optional().describe('Default: "Monitor <first URL or query>".'),
  scheduleText: z.string().optional().describe('When checks run, e.g. "every hour". Default: "every 30 minutes".'),
  timezone: z.string().optional().describe('IANA time zone of the schedule. Default: "UTC".'),
  email: z.string().optional().describe('Refused: crawlkit sends no email; give webhookUrl instead.'),
  includeDiffs: z.boolean().optional(),
  webhookUrl: z.string().optional().describe('Told of each new, changed or removed page and of each check done.'),
});

type CreateArgs = { [K in keyof typeof createShape]?: z.output<(typeof createShape)[K]> };

const trimmed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const words = (values: unknown): string[] =>
  (Array.isArray(values) ? values : []).map(trimmed).filter((value) => value !== '');

/** The monitor the simple form describes, with firecrawl-mcp's defaults; a string when the form lacks a field. */
function createBody(args: CreateArgs): CreateMonitorInput | string {
  const { body } = withoutNulls(args);
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as CreateMonitorInput;
  const urls = words([args.page, ...(args.pages ?? [])]);
  const queries = words(args.queries);
  if (urls.length === 0 && queries.length === 0) {
    return 'firecrawl_monitor_create needs `body`, `page`/`pages`, or `queries`.';
  }
  const goal = trimmed(args.goal);
  if (!goal) return 'firecrawl_monitor_create needs a `goal` with `page`/`pages`/`queries`; give `body` to go without.';
  const search = () => {
    const [window, include, exclude] = [
      trimmed(args.searchWindow),
      words(args.includeDomains),
      words(args.excludeDomains),
    ];
    return {
      type: 'search' as const,
      queries,
      ...(window ? { searchWindow: window } : {}),
      ...(typeof args.maxResults === 'number' ? { maxResults: args.maxResults } : {}),
      ...(include.length > 0 ? { includeDomains: include } : {}),
      ...(exclude.length > 0 ? { excludeDomains: exclude } : {}),
    };
  };
  const email = trimmed(args.email);
  const webhookUrl = trimmed(args.webhookUrl);
  return {
    name: trimmed(args.name) || `Monitor ${queries[0] ?? urls[0]}`,
    schedule: { text: trimmed(args.scheduleText) || 'every 30 minutes', timezone: trimmed(args.timezone) || 'UTC' },
    goal,
    targets: [queries.length > 0 ? search() : { type: 'scrape' as const, urls }],
    // The engine refuses it (it sends no email), as POST /v2/monitor does: told, never dropped unseen.
    ...(email
      ? { notification: { email: { enabled: true, recipients: [email], includeDiffs: Boolean(args.includeDiffs) } } }
      : {}),
    ...(webhookUrl ? { webhook: { url: webhookUrl, events: ['monitor.page', 'monitor.check.completed'] } } : {}),
  };
}

/** Registers the monitor tools. */
export function registerMonitorTools({ ck, admission, tool, result, call }: ToolKit): void {
  const { monitors } = ck;
  /** A tool of one argument, the monitor's id. */
  const byId = (
    name: string,
    method: 'get' | 'delete' | 'run',
    annotations: ToolAnnotations,
    title: string,
    description: string,
  ) =>
    tool(name, { title, description, inputSchema: { id }, annotations }, async ({ id: monitorId }, { signal }) => {
      const answer = () => monitors[method](monitorId, call(signal));
      // A run starts the check's jobs: admitted like a crawl, only while the store has room.
      return result(await (method === 'run' ? admission.withRoom(answer) : answer()));
    });
  tool(
    'firecrawl_monitor_create',
    {
      title: 'Create a monitor',
      description:
        'Create a monitor: scrapes, crawls or searches on a schedule, each check compared with the one before (pages ' +
        'same, new, changed, removed). The simple form takes `page`/`pages` or `queries` and a plain-words `goal` ' +
        '(every 30 minutes, UTC by default); `body` is the whole POST /v2/monitor request (targets, schedule, change ' +
        'tracking, judging, retention, webhook). Checks run on their clock while crawlkit mcp, serve or schedules ' +
        'run runs on this store. Returns the monitor.',
      inputSchema: createShape,
      annotations: WRITE,
    },
    async (args, { signal }) => {
      const body = createBody(args);
      if (typeof body === 'string') return result({ success: false, code: 'BAD_REQUEST', error: body });
      return result(await monitors.create(body, call(signal)));
    },
  );

  tool(
    'firecrawl_monitor_list',
    {
      title: 'List monitors',
      description: 'The monitors of this store (of your API key over HTTP), oldest first: `limit` from `offset`.',
      inputSchema: nullable({ limit, offset }),
      annotations: READ,
    },
    async (args, { signal }) => result(await monitors.list(withoutNulls(args), call(signal))),
  );

  byId(
    'firecrawl_monitor_get',
    'get',
    READ,
    'Get a monitor',
    "One monitor by id: its settings, state and next check. Doesn't run or change it.",
  );

  tool(
    'firecrawl_monitor_update',
    {
      title: 'Update a monitor',
      description:
        'Change a monitor by id: `body` gives what changes (name, status active or paused, schedule, targets, goal, ' +
        'judging, webhook, retentionDays); later checks follow it. Returns the monitor.',
      inputSchema: { id, body: z.record(z.string(), z.any()) },
      annotations: { ...WRITE, destructiveHint: true },
    },
    async ({ id: monitorId, body }, { signal }) =>
      result(await monitors.update(monitorId, body as UpdateMonitorInput, call(signal))),
  );

  byId(
    'firecrawl_monitor_delete',
    'delete',
    { ...WRITE, destructiveHint: true },
    'Delete a monitor',
    'Delete a monitor by id: no further check runs. It cannot be undone.',
  );

  byId(
    'firecrawl_monitor_run',
    'run',
    WRITE,
    'Run a monitor now',
    'Start a check of a monitor now, out of its schedule: fetches its targets. Returns the check (running while ' +
      'its pages are fetched): read it with firecrawl_monitor_check.',
  );

  tool(
    'firecrawl_monitor_checks',
    {
      title: "A monitor's checks",
      description: "A monitor's checks, newest first, each with its counts of pages: `limit` from `offset`, by status.",
      inputSchema: { id, ...nullable({ limit, offset, status: z.enum(CHECK_STATUSES).optional() }) },
      annotations: READ,
    },
    async ({ id: monitorId, ...query }, { signal }) =>
      result(await monitors.checks(monitorId, withoutNulls(query), call(signal))),
  );

  tool(
    'firecrawl_monitor_check',
    {
      title: 'A monitor check',
      description:
        'One check of a monitor and its pages (`limit` from `skip`, those of one `pageStatus`; `nextTool` reads on): ' +
        'each same, new, changed, removed or error, a changed one with its diff (text, or JSON fields), and the ' +
        "judgment against the monitor's goal when it has one.",
      inputSchema: {
        id,
        checkId: z
          .string()
          .describe('The id of the check, as firecrawl_monitor_run or firecrawl_monitor_checks answered it.'),
        ...nullable({ limit, skip: offset, pageStatus: z.enum(PAGE_STATUSES).optional() }),
      },
      annotations: READ,
    },
    async ({ id: monitorId, checkId, pageStatus, ...page }, { signal }) => {
      const query = { ...withoutNulls(page), ...(pageStatus ? { status: pageStatus } : {}) };
      const answer = await monitors.check(monitorId, checkId, query, call(signal));
      if (!answer.success || answer.next === null) return result(answer);
      // `next` is a URL of the HTTP API, which an agent over MCP does not call: the tool call that reads on.
      const skip = Number(new URL(answer.next).searchParams.get('skip'));
      const args = { id: monitorId, checkId, skip, ...(page.limit ? { limit: page.limit } : {}) };
      return result({
        ...answer,
        message: `More pages: call firecrawl_monitor_check with skip: ${skip} for the next ones.`,
        nextTool: { name: 'firecrawl_monitor_check', arguments: { ...args, ...(pageStatus ? { pageStatus } : {}) } },
      });
    },
  );
}
