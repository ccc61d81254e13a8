/**
 * Monitors and checks as the API shows them: the shapes the 2026 clients read (`Monitor`, `MonitorCheck`,
 * `MonitorCheckDetail`, `MonitorSummary`).
 */
import type { SecretBox, StoredSchedule } from '@crawlkit/store';

import { scheduleCodec } from '../codec/records.js';
import { hideJobSecrets } from '../jobs/job-secrets.js';
import { shownNextRunAt } from '../schedules/schedule-hold.js';
import { NEVER } from '../schedules/scheduler.js';
import { type CheckStatus, type MonitorCheckPage, type MonitorSummary } from './monitor-checks.js';
import { CHECK_COMPLETED } from './monitor-events.js';
import type { MonitorCheckValue, MonitorValue } from './monitor-store.js';
import { monitorTargetsOf, type MonitorTargetView } from './monitor-targets.js';

export interface MonitorView {
  id: string;
  name: string;
  status: 'active' | 'paused';
  schedule: { cron: string; timezone: string; text?: string };
  nextRunAt: string | null;
  lastRunAt: string | null;
  currentCheckId: string | null;
  targets: MonitorTargetView[];
  webhook: { url: string; headers: Record<string, string>; metadata: Record<string, string>; events: string[] } | null;
  notification: null;
  retentionDays: number;
  estimatedCreditsPerMonth: null;
  lastCheckSummary: MonitorSummary | null;
  goal: string | null;
  /** Whether the checks' changed and new pages are judged against `goal` (with a model configured). */
  judgeEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type MonitorTargetResult =
  | { targetId: string; type: 'scrape'; expectedJobs: string[] }
  | { targetId: string; type: 'crawl'; crawlId?: string }
  /** `batchId`, crawlkit's own: the batch scrape of the results' pages. */
  | { targetId: string; type: 'search'; searchCompleted: boolean; resultCount: number; batchId?: string };

export interface MonitorCheckView {
  id: string;
  monitorId: string;
  status: CheckStatus;
  trigger: 'scheduled' | 'manual';
  scheduledFor: string;
  startedAt: string;
  finishedAt: string | null;
  estimatedCredits: null;
  reservedCredits: null;
  actualCredits: null;
  billingStatus: 'not_applicable';
  summary: MonitorSummary;
  targetResults: MonitorTargetResult[];
  notificationStatus: null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MonitorCheckPageView extends MonitorCheckPage {
  previousScrapeId: null;
  createdAt: string;
}

export interface MonitorCheckDetailView extends MonitorCheckView {
  pages: MonitorCheckPageView[];
  next: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** What the latest check adds to a monitor: when it ran, its summary, and its id while it runs. */
export interface LatestCheck {
  id: string;
  startedAt: number;
  status: CheckStatus;
  summary: MonitorSummary;
}

/** The monitor as its API shows it: header values hidden, its webhook's URL opened by `box`, without its password. */
export function monitorView(
  stored: StoredSchedule,
  monitor: MonitorValue,
  box: SecretBox,
  latest?: LatestCheck,
): MonitorView {
  const schedule = scheduleCodec.decode(stored.value);
  const targets = schedule.targets.map((target) => hideJobSecrets({ request: target }).request);
  const shown = schedule.webhook ? hideJobSecrets({ request: {}, webhook: schedule.webhook }, box).webhook : undefined;
  const webhook = shown
    ? { ...shown, events: [...shown.events, ...(monitor.checkCompleted ? [CHECK_COMPLETED] : [])] }
    : null;
  return {
    id: stored.id,
    name: monitor.name,
    status: monitor.status,
    schedule: monitor.schedule,
    nextRunAt: shownNextRunAt(stored.nextRunAt, NEVER),
    lastRunAt: latest ? iso(latest.startedAt) : null,
    currentCheckId: latest?.status === 'running' ? latest.id : null,
    targets: monitorTargetsOf(stored.id, { targets, meta: monitor.meta, slots: monitor.slots }),
    webhook,
    notification: null,
    retentionDays: monitor.retentionDays,
    estimatedCreditsPerMonth: null,
    lastCheckSummary: latest?.summary ?? null,
    goal: monitor.goal ?? null,
    judgeEnabled: monitor.goal !== undefined && monitor.judgeEnabled !== false,
    createdAt: iso(stored.createdAt),
    updatedAt: iso(monitor.updatedAt),
  };
}

export function checkView(
  id: string,
  check: MonitorCheckValue,
  state: { status: CheckStatus; finishedAt: number | null; summary: MonitorSummary },
): MonitorCheckView {
  const targetResults = check.meta.map((meta, index): MonitorTargetResult => {
    const jobIds = check.jobIds.filter((jobId, slot): jobId is string => jobId !== null && check.slots[slot] === index);
    if (meta.type === 'search') {
      const searched = check.searches?.find((search) => search.target === index);
      return {
        targetId: meta.id,
        type: 'search',
        searchCompleted: searched !== undefined,
        resultCount: searched?.results.length ?? 0,
        ...(searched?.batchId ? { batchId: searched.batchId } : {}),
      };
    }
    if (meta.type === 'scrape') return { targetId: meta.id, type: 'scrape', expectedJobs: jobIds };
    return { targetId: meta.id, type: 'crawl', ...(jobIds[0] ? { crawlId: jobIds[0] } : {}) };
  });
  const { errors } = check;
  return {
    id,
    monitorId: check.monitorId,
    status: state.status,
    trigger: check.trigger,
    scheduledFor: iso(check.scheduledFor),
    startedAt: iso(check.startedAt),
    finishedAt: state.finishedAt === null ? null : iso(state.finishedAt),
    estimatedCredits: null,
    reservedCredits: null,
    actualCredits: null,
    billingStatus: 'not_applicable',
    summary: state.summary,
    targetResults,
    notificationStatus: null,
    error: errors.length > 0 ? errors.join('; ') : null,
    createdAt: iso(check.startedAt),
    updatedAt: iso(state.finishedAt ?? check.startedAt),
  };
}

export function pageView(
  page: MonitorCheckPage,
  check: MonitorCheckValue,
  finishedAt: number | null,
): MonitorCheckPageView {
  return { ...page, previousScrapeId: null, createdAt: iso(finishedAt ?? check.startedAt) };
}
