/**
 * A monitor's targets as the targets of its schedule, and back: a `scrape` target runs one schedule target per URL,
 * a `crawl` target one crawl. Each runs with `changeTracking` (`git-diff`) added to its formats, so that a changed
 * page of a check carries its diff. A `search` target is no schedule target: what it searches is kept in its `meta`
 * and run by the check as it starts (`monitor-search.ts`).
 */
import { randomUUID } from 'node:crypto';

import type { z } from 'zod';

import type { monitorCodec } from '../codec/monitor-records.js';
import { describeIssues } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import { scheduleRequestSchema, type ScheduleTarget } from '../schedules/schedule-request.js';
import type { MonitorTargetInput } from './monitor-request.js';
import { searchTargetIssues, searchTargetOf, searchTargetView } from './monitor-search-target.js';

export type MonitorTargetMeta = ReturnType<typeof monitorCodec.decode>['meta'][number];
export type MonitorSearch = NonNullable<MonitorTargetMeta['search']>;

/** A monitor target as the API shows it. */
export type MonitorTargetView =
  | { id: string; type: 'scrape'; urls: string[]; scrapeOptions?: Record<string, unknown> }
  | {
      id: string;
      type: 'crawl';
      url: string;
      crawlOptions?: Record<string, unknown>;
      scrapeOptions?: Record<string, unknown>;
    }
  | ({ id: string; type: 'search' } & Omit<MonitorSearch, 'scrapeOptions'> & {
        scrapeOptions?: Record<string, unknown>;
      });

export interface ScheduleTargets {
  targets: ScheduleTarget[];
  meta: MonitorTargetMeta[];
  slots: number[];
  /** Each target's pages tracked under its own tag (`historyTag`); absent on monitors made before. */
  historyPerTarget?: true;
}

/** Schedule targets a monitor may run: a schedule's most. */
const MAX_RUNS = 100;

/**
 * The `changeTracking` tag of a monitor target's pages (their diff history): the target's own, so that a page in two
 * targets (with other options) is compared with its own last snapshot; the monitor's on monitors made before.
 */
export function historyTag(monitorId: string, targetId: string | undefined): string {
  return targetId === undefined ? `monitor:${monitorId}` : `monitor:${monitorId}:${targetId}`;
}

/** The tags a monitor's pages are tracked under. */
export function historyTags(monitorId: string, targets: Pick<ScheduleTargets, 'meta' | 'historyPerTarget'>): string[] {
  if (!targets.historyPerTarget) return [historyTag(monitorId, undefined)];
  return targets.meta.map((meta) => historyTag(monitorId, meta.id));
}

const isHistoryTag = (tag: unknown, monitorId: string) =>
  typeof tag === 'string' && (tag === historyTag(monitorId, undefined) || tag.startsWith(`monitor:${monitorId}:`));

type Format = string | { type?: unknown; tag?: unknown };

/** The scrape options with the monitor's `changeTracking` format (under `tag`), unless the client gave one. */
export function withDiff(scrapeOptions: Record<string, unknown> | undefined, tag: string): Record<string, unknown> {
  const formats = (scrapeOptions?.formats as Format[] | undefined) ?? ['markdown'];
  if (!Array.isArray(formats)) return { ...scrapeOptions };
  const tracked = formats.some(
    (f) => f === 'changeTracking' || (typeof f === 'object' && f?.type === 'changeTracking'),
  );
  if (tracked) return { ...scrapeOptions };
  const diff = { type: 'changeTracking', modes: ['git-diff'], tag };
  return { ...scrapeOptions, formats: [...formats, diff] };
}

/** The scrape options as the client gave them: the monitor's own `changeTracking` format taken out. */
export function withoutDiff(
  scrapeOptions: Record<string, unknown>,
  monitorId: string,
): Record<string, unknown> | undefined {
  const formats = (scrapeOptions.formats as Format[] | undefined)?.filter(
    (f) => !(typeof f === 'object' && f?.type === 'changeTracking' && isHistoryTag(f.tag, monitorId)),
  );
  const { formats: _formats, ...rest } = scrapeOptions;
  const kept = formats && !(formats.length === 1 && formats[0] === 'markdown') ? { ...rest, formats } : rest;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The schedule targets of a monitor's targets (the ids it gave kept, the others made). `historyPerTarget`: false for a
 * monitor made before targets had their own history, which keeps the tag its pages were tracked under.
 */
export function scheduleTargetsOf(
  monitorId: string,
  targets: MonitorTargetInput[],
  historyPerTarget = true,
): ScheduleTargets {
  const out: ScheduleTargets = {
    targets: [],
    meta: [],
    slots: [],
    ...(historyPerTarget ? { historyPerTarget: true } : {}),
  };
  targets.forEach((target, index) => {
    const id = target.id ?? `tgt_${randomUUID().slice(0, 8)}`;
    const scrapeOptions = withDiff(target.scrapeOptions, historyTag(monitorId, historyPerTarget ? id : undefined));
    if (target.type === 'search') {
      out.meta.push({ id, type: 'search', search: searchTargetOf(target, scrapeOptions) });
      return;
    }
    out.meta.push({ id, type: target.type });
    if (target.type === 'scrape') {
      for (const url of target.urls) {
        out.targets.push({ type: 'scrape', url, ...scrapeOptions });
        out.slots.push(index);
      }
    } else {
      out.targets.push({ type: 'crawl', url: target.url, ...target.crawlOptions, scrapeOptions });
      out.slots.push(index);
    }
  });
  return out;
}

/** The monitor's targets back from its schedule's (header values as the schedule shows them). */
export function monitorTargetsOf(monitorId: string, from: ScheduleTargets): MonitorTargetView[] {
  return from.meta.map((meta, index): MonitorTargetView => {
    if (meta.search)
      return { id: meta.id, ...searchTargetView(meta.search, withoutDiff(meta.search.scrapeOptions, monitorId)) };
    const own = from.targets.filter((_, slot) => from.slots[slot] === index);
    if (meta.type === 'scrape') {
      const { type: _type, url: _url, ...options } = own[0]!;
      const scrapeOptions = withoutDiff(options, monitorId);
      return { id: meta.id, type: 'scrape', urls: own.map((t) => t.url), ...(scrapeOptions ? { scrapeOptions } : {}) };
    }
    const { type: _type, url, scrapeOptions: rawScrape, ...crawlOptions } = own[0]!;
    const scrapeOptions = withoutDiff((rawScrape ?? {}) as Record<string, unknown>, monitorId);
    return {
      id: meta.id,
      type: 'crawl',
      url,
      ...(Object.keys(crawlOptions).length > 0 ? { crawlOptions } : {}),
      ...(scrapeOptions ? { scrapeOptions } : {}),
    };
  });
}

/**
 * Checks the schedule targets as a schedule would (each a valid crawl, none setting what the monitor owns); its
 * problems are told at the monitor target's own paths (`targets[1].crawlOptions.limit`).
 */
export function targetProblem(
  from: ScheduleTargets,
  webhook: unknown,
  given: MonitorTargetInput[],
): ErrorResponse | undefined {
  if (from.targets.length > MAX_RUNS) {
    return {
      success: false,
      code: 'BAD_REQUEST',
      error:
        `A monitor runs at most ${MAX_RUNS} scrapes and crawls at a check (each URL of a \`scrape\` target is one, each ` +
        `\`crawl\` target one): these targets make ${from.targets.length}. Crawl the site with a \`crawl\` target, or ` +
        'split the URLs among monitors.',
    };
  }
  // A monitor of search targets alone has no schedule target: its webhook is checked beside one standing in.
  const probe: ScheduleTarget[] = [{ type: 'scrape', url: 'https://example.com/' }];
  const parsed = scheduleRequestSchema.safeParse({
    cron: '0 0 * * *',
    targets: from.targets.length > 0 ? from.targets : probe,
    ...(webhook ? { webhook } : {}),
  });
  const searchIssues = given.flatMap((target, index) =>
    target.type === 'search' ? searchTargetIssues(target, index) : [],
  );
  if (parsed.success && searchIssues.length === 0) return undefined;
  const scheduleIssues: z.core.$ZodIssue[] = parsed.success ? [] : parsed.error.issues;
  const issues = scheduleIssues.map((issue) => {
    const [first, slot, ...rest] = issue.path;
    if (first !== 'targets' || typeof slot !== 'number') return issue;
    const index = from.slots[slot]!;
    const where = given[index]?.type === 'crawl' && rest[0] !== 'scrapeOptions' ? ['crawlOptions'] : [];
    const path = ['targets', index, ...(given[index]?.type === 'scrape' ? ['scrapeOptions'] : where), ...rest];
    const message = issue.message
      .replace(`targets[${slot}]`, `targets[${index}]`)
      .replace('the schedule keeps', 'the monitor keeps')
      .replace('sends its own webhook', 'sends its `webhook`');
    return { ...issue, path, message };
  });
  issues.push(...searchIssues);
  return { success: false, code: 'BAD_REQUEST', error: describeIssues(issues), details: issues };
}
