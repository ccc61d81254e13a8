/** `GET /v2/monitor/:id/checks` and `GET /v2/monitor/:id/checks/:checkId`: a monitor's checks and their pages. */
import { z } from 'zod';

import { DEFAULT_JOB_BASE } from '../jobs/job-address.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { findMonitor, monitorNotFound, type MonitorCall } from './monitor-api.js';
import { pagesOf, readChunks, type PageQuery } from './monitor-check-pages.js';
import { checkState } from './monitor-checks.js';
import { keptSince, listChecks, readCheck } from './monitor-store.js';
import { checkView, pageView, type MonitorCheckDetailView, type MonitorCheckView } from './monitor-views.js';

const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap'] as const;

const listSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  /** Only the checks of this status (the MCP server's `firecrawl_monitor_checks` sends it). */
  status: z
    .string()
    .optional()
    .refine((s) => s === undefined || (CHECK_STATUSES as readonly string[]).includes(s), {
      message: `\`status\` must be one of ${CHECK_STATUSES.join(', ')}.`,
    }),
});

const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;

const detailSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  skip: z.coerce.number().int().min(0).default(0),
  status: z
    .string()
    .optional()
    .refine((s) => s === undefined || (PAGE_STATUSES as readonly string[]).includes(s), {
      message: `\`status\` must be one of ${PAGE_STATUSES.join(', ')}.`,
    }),
});

const checkNotFound = (): ErrorResponse => ({
  success: false,
  code: 'MONITOR_CHECK_NOT_FOUND',
  error: 'Monitor check not found',
});

/** The monitor's checks, newest first (`limit`, `offset`, and a check `status` to keep). */
export async function listMonitorChecks(
  call: MonitorCall,
  id: string,
  query: { limit?: unknown; offset?: unknown; status?: unknown } = {},
): Promise<{ success: true; data: MonitorCheckView[] } | ErrorResponse> {
  const paging = parseBody(listSchema, query);
  if (!paging.ok) return paging.error;
  const found = await findMonitor(call, id);
  if (!found) return monitorNotFound();
  const { limit, offset, status } = paging.value;
  const data: MonitorCheckView[] = [];
  let seen = 0;
  for await (const checkId of listChecks(call.ctx.store, found.stored.id, found.monitor.retentionDays)) {
    if (data.length >= limit) break;
    const check = await readCheck(call.ctx.store, checkId);
    if (!check || (status === undefined && seen++ < offset)) continue;
    const view = checkView(checkId, check, await checkState(call.ctx, call.jobs, checkId, check));
    if (status !== undefined && (view.status !== status || seen++ < offset)) continue;
    data.push(view);
  }
  return { success: true, data };
}

/** A check with its pages (`skip`, `limit`, `status`), and `next` while more are there. */
export async function getMonitorCheck(
  call: MonitorCall,
  id: string,
  checkId: string,
  query: { limit?: unknown; skip?: unknown; status?: unknown } = {},
): Promise<{ success: true; data: MonitorCheckDetailView; next: string | null } | ErrorResponse> {
  const paging = parseBody(detailSchema, query);
  if (!paging.ok) return paging.error;
  const found = await findMonitor(call, id);
  if (!found) return monitorNotFound();
  const check = await readCheck(call.ctx.store, String(checkId));
  const kept = keptSince(found.monitor.retentionDays);
  if (!check || check.monitorId !== found.stored.id || check.startedAt < kept) return checkNotFound();
  const state = await checkState(call.ctx, call.jobs, checkId, check);
  const { limit, skip, status } = paging.value;
  const wanted = { skip, limit, status: status as PageQuery['status'] };
  const read =
    state.pages || state.status === 'running'
      ? pagesOf(state.pages ?? [], wanted)
      : await readChunks(
          call.ctx.store,
          checkId,
          { ...state, status: state.status, finishedAt: state.finishedAt! },
          wanted,
        );
  const pages = read.pages.map((page) => pageView(page, check, state.finishedAt));
  let next: string | null = null;
  if (skip + limit < read.total) {
    const params = new URLSearchParams({ skip: String(skip + limit), limit: String(limit) });
    if (status !== undefined) params.set('status', status);
    const base = call.baseUrl ?? DEFAULT_JOB_BASE;
    next = `${base.endsWith('/') ? base : `${base}/`}v2/monitor/${found.stored.id}/checks/${checkId}?${params}`;
  }
  return { success: true, data: { ...checkView(checkId, check, state), pages, next }, next };
}
