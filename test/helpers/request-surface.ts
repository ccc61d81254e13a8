/**
 * The serve stack the request-surface probes share (request-surface.test.ts, request-faults.test.ts): two tenants'
 * keys, a monitor and a schedule made before the tests (the update routes need their ids), `send` for a raw request,
 * `undo` to stop what an accepted one started, and every answer in `seen` (printed with CK_PROBE_REPORT=1).
 */
import { afterAll, beforeAll, expect } from 'vitest';

import { createMonitorSchema, updateMonitorSchema } from '../../packages/crawlkit/src/monitors/monitor-request.ts';
import { scheduleRequestSchema, updateScheduleSchema } from '../../packages/crawlkit/src/schedules/schedule-request.ts';
import { searchRequestSchema } from '../../packages/crawlkit/src/search/request.ts';
import {
  batchScrapeRequestSchema,
  crawlParamsPreviewSchema,
  crawlRequestSchema,
  mapRequestSchema,
} from '../../packages/crawlkit/src/v2/jobs.ts';
import { scrapeRequestSchema } from '../../packages/crawlkit/src/v2/scrape-options.ts';
import type { ProbeAnswer, Schema } from './request-probe.ts';
import { startServeStack, type ServeStack } from './serve.ts';

const KEY = 'fc-probe-a';
export const OTHER_KEY = 'fc-probe-b';

export interface Route {
  method: string;
  path: string | (() => string);
  schema: Schema;
  base: () => Record<string, unknown>;
  undo?: 'crawl' | 'batch' | 'schedule';
}

/** What `useRequestSurface` starts before the file's tests. */
export interface RequestSurface {
  stack: ServeStack;
  /** The monitor made before the tests. */
  monitorId: string;
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start the stack, make the monitor and the schedule (handing the
 * stack to `started`), print `seen` and close; returns what the probes send with.
 */
export function useRequestSurface(started: (surface: RequestSurface) => void) {
  let stack: ServeStack;

  async function send(
    method: string,
    path: string,
    text: string | Buffer | undefined,
    headers: Record<string, string> = {},
    key = KEY,
  ): Promise<ProbeAnswer> {
    try {
      const response = await fetch(`${stack.server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(text !== undefined ? { body: typeof text === 'string' ? text : new Uint8Array(text) } : {}),
        signal: AbortSignal.timeout(20_000),
      });
      const body = await response.text();
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, text: body };
    } catch (error) {
      return { status: 0, body: undefined, text: String(error) };
    }
  }

  /** Stops what an accepted request started, so the probe's jobs do not pile up. */
  async function undo(route: Route, answer: ProbeAnswer): Promise<void> {
    if (answer.status >= 300 || !answer.body) return;
    const id = (answer.body.id ?? (answer.body.data as { id?: string } | undefined)?.id) as string | undefined;
    if (!id) return;
    const paths = { crawl: `/v2/crawl/${id}`, batch: `/v2/batch/scrape/${id}`, schedule: `/v2/schedule/${id}` };
    if (route.undo) await send('DELETE', paths[route.undo], undefined);
  }

  let monitorId = '';
  let scheduleId = '';

  const ROUTES: Record<string, Route> = {
    scrape: { method: 'POST', path: '/v2/scrape', schema: scrapeRequestSchema, base: () => ({ url: stack.page('/') }) },
    crawl: {
      method: 'POST',
      path: '/v2/crawl',
      schema: crawlRequestSchema,
      base: () => ({ url: stack.page('/'), limit: 1 }),
      undo: 'crawl',
    },
    batch: {
      method: 'POST',
      path: '/v2/batch/scrape',
      schema: batchScrapeRequestSchema,
      base: () => ({ urls: [stack.page('/')] }),
      undo: 'batch',
    },
    map: { method: 'POST', path: '/v2/map', schema: mapRequestSchema, base: () => ({ url: stack.page('/') }) },
    search: { method: 'POST', path: '/v2/search', schema: searchRequestSchema, base: () => ({ query: 'plane' }) },
    'params-preview': {
      method: 'POST',
      path: '/v2/crawl/params-preview',
      schema: crawlParamsPreviewSchema,
      base: () => ({ url: stack.page('/'), prompt: 'docs only' }),
    },
    schedule: {
      method: 'POST',
      path: '/v2/schedule',
      schema: scheduleRequestSchema,
      base: () => ({ every: '1h', targets: [{ type: 'scrape', url: stack.page('/') }] }),
      undo: 'schedule',
    },
    'schedule update': {
      method: 'PATCH',
      path: () => `/v2/schedule/${scheduleId}`,
      schema: updateScheduleSchema,
      base: () => ({ name: 'probe' }),
    },
    'monitor create': {
      method: 'POST',
      path: '/v2/monitor',
      schema: createMonitorSchema,
      base: () => ({
        name: 'probe',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [stack.page('/')] }],
      }),
    },
    'monitor update': {
      method: 'PATCH',
      path: () => `/v2/monitor/${monitorId}`,
      schema: updateMonitorSchema,
      base: () => ({ name: 'probe' }),
    },
  };

  beforeAll(async () => {
    stack = await startServeStack({ server: { apiKeys: [KEY, OTHER_KEY] } });
    const created = await send('POST', '/v2/monitor', JSON.stringify(ROUTES['monitor create']!.base()));
    monitorId = ((created.body?.data as { id?: string } | undefined)?.id ?? (created.body?.id as string)) || '';
    expect(monitorId, created.text).not.toBe('');
    const schedule = await send(
      'POST',
      '/v2/schedule',
      JSON.stringify({ cron: '0 0 1 1 *', targets: [{ type: 'scrape', url: stack.page('/') }] }),
    );
    scheduleId = ((schedule.body?.data as { id?: string } | undefined)?.id ?? '') || '';
    expect(scheduleId, schedule.text).not.toBe('');
    started({ stack, monitorId });
  }, 60_000);

  /** Every answer in a line, printed with CK_PROBE_REPORT=1 for a reader to judge the values taken and the words. */
  const seen: string[] = [];

  afterAll(async () => {
    if (process.env.CK_PROBE_REPORT) console.log(seen.join('\n'));
    await stack?.close();
  });

  return { send, undo, ROUTES, seen };
}

export /** What an answer tells its reader: crawlkit's own sentence where the upstream shape moved it into `details`. */
function sentenceOf(answer: ProbeAnswer): string {
  if (!answer.body || answer.body.success !== false) return answer.status < 300 ? 'ok' : answer.text.slice(0, 200);
  const details = Array.isArray(answer.body.details)
    ? (answer.body.details as { path?: unknown[]; message?: string }[])
    : [];
  const own = details.find((d) => d.path?.length === 0)?.message;
  return `${String(answer.body.code)} ${own ?? String(answer.body.error)}`.slice(0, 300);
}
