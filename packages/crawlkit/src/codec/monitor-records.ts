/**
 * The records a monitor keeps in the history store (`/v2/monitor`): the monitor, its checks and their places in its
 * list. Its schedule's own record is `scheduleCodec` (`records.ts`).
 */
import { z } from 'zod';

import { recordCodec } from './record-codec.js';

/** What a `search` target runs at each check: its queries and their filters, and how its results are scraped. */
const monitorSearch = z.object({
  queries: z.array(z.string()),
  maxResults: z.number(),
  searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  /** The scrape options of the results' pages, with the monitor's `changeTracking` format. */
  scrapeOptions: z.record(z.string(), z.unknown()),
});

const monitorTargets = {
  /** Each target of the monitor as the client named it, in order (a `search` target with what it searches). */
  meta: z.array(
    z.object({ id: z.string(), type: z.enum(['scrape', 'crawl', 'search']), search: monitorSearch.optional() }),
  ),
  /** For each target of the schedule, the monitor target it runs (a scrape target runs one per URL). */
  slots: z.array(z.number()),
  /**
   * Each target keeps its pages' change tracking under its own tag (`monitor:<id>:<target id>`). Absent on monitors
   * made before, whose targets share `monitor:<id>` (a page in two targets was compared with the other's snapshot).
   */
  historyPerTarget: z.literal(true).optional(),
};

/**
 * A monitor (`/v2/monitor`): what it adds to the schedule of the same id, kept in the history store under that id. The
 * schedule holds its clock, targets and webhook.
 */
export const monitorCodec = recordCodec({
  name: 'monitor',
  version: 1,
  schema: z.object({
    tenant: z.string().optional(),
    /** The creating call's `creditLimit`: the scrapes of its search targets' results run under it, as the tenant's. */
    creditLimit: z.number().nonnegative().optional(),
    name: z.string(),
    status: z.enum(['active', 'paused']),
    schedule: z.object({ cron: z.string(), timezone: z.string(), text: z.string().optional() }),
    ...monitorTargets,
    retentionDays: z.number(),
    goal: z.string().optional(),
    judgeEnabled: z.boolean().optional(),
    checkCompleted: z.boolean().optional(), // its webhook's `events` has `monitor.check.completed`
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
});

const monitorSummary = z.object({
  totalPages: z.number(),
  same: z.number(),
  changed: z.number(),
  new: z.number(),
  removed: z.number(),
  error: z.number(),
});

/** A model's judgment of a changed or new page against the monitor's `goal` (the clients' `MonitorPageJudgment`). */
export const monitorPageJudgment = z.object({
  meaningful: z.boolean(),
  confidence: z.enum(['high', 'medium', 'low']),
  reason: z.string(),
  meaningfulChanges: z.array(
    z.object({
      type: z.enum(['added', 'removed', 'changed']),
      before: z.string().nullable(),
      after: z.string().nullable(),
      reason: z.string(),
    }),
  ),
});

/** One page of a closed check. */
export const monitorCheckPage = z.object({
  id: z.string(),
  targetId: z.string(),
  url: z.string(),
  status: z.enum(['same', 'new', 'changed', 'removed', 'error']),
  currentScrapeId: z.string().nullable(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  diff: z.object({ text: z.string().optional(), json: z.unknown().optional() }).nullable(),
  /** Null when the model could not judge the page. */
  judgment: monitorPageJudgment.nullable().optional(),
});

/**
 * One check of a monitor (a firing of its schedule), kept in the history store under the check's id: the crawls it
 * started and, once they ended, its outcome and pages (the crawls' results expire; the check does not).
 */
export const monitorCheckCodec = recordCodec({
  name: 'monitor check',
  // 2: a closed check's pages are kept in chunks (`monitorCheckPagesCodec`), the check holding their counts.
  version: 2,
  schema: z.object({
    monitorId: z.string(),
    trigger: z.enum(['scheduled', 'manual']),
    scheduledFor: z.number(),
    startedAt: z.number(),
    jobIds: z.array(z.string().nullable()),
    skipped: z.array(z.number()),
    errors: z.array(z.string()),
    ...monitorTargets,
    /**
     * Its `search` targets' searches, run as it started: the results (URLs) and the previous check's, and the batch
     * scrape of the results' pages (null when there were none).
     */
    searches: z
      .array(
        z.object({
          target: z.number(),
          batchId: z.string().nullable(),
          results: z.array(z.string()),
          previous: z.array(z.string()),
        }),
      )
      .optional(),
    /** The goal its changed and new pages are judged against (set when the monitor judged as the check started). */
    goal: z.string().optional(),
    closed: z
      .object({
        status: z.enum(['completed', 'failed', 'partial', 'skipped_overlap']),
        finishedAt: z.number(),
        summary: monitorSummary,
        /** Every page of a check closed before version 2 (or of one being closed, in memory). */
        pages: z.array(monitorCheckPage).optional(),
        /** From version 2: how many pages of each status each chunk of its pages holds, in order. */
        chunks: z.array(monitorSummary.omit({ totalPages: true })).optional(),
      })
      .optional(),
  }),
});

/** A chunk of a closed check's pages (at most a few hundred), kept under `<checkId>#<n>` in their order. */
export const monitorCheckPagesCodec = recordCodec({
  name: 'monitor check pages',
  version: 1,
  schema: z.object({ pages: z.array(monitorCheckPage) }),
});

/** The results of a `search` target's last check, kept under `<monitorId>\n<targetId>`: what the next one compares. */
export const monitorSearchResultsCodec = recordCodec({
  name: 'monitor search results',
  version: 1,
  schema: z.object({ urls: z.array(z.string()), at: z.number() }),
});

/**
 * One place in a monitor's list of checks: slot `n` (a number the store's counter gave) holds one check, kept in the
 * history store under `<monitorId>#<n>`, so that two processes adding checks at once never write the same record.
 */
export const monitorCheckSlotCodec = recordCodec({
  name: 'monitor check slot',
  version: 1,
  schema: z.object({ id: z.string(), at: z.number() }),
});

/** The first slot of a monitor's list of checks not yet deleted (the checks before it have left the store). */
export const monitorCheckFloorCodec = recordCodec({
  name: 'monitor check floor',
  version: 1,
  schema: z.object({ slot: z.number() }),
});
