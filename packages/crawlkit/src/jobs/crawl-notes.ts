/** What a crawl's planners write in its stored job (`StoredJobEnvelope`) for the job's other processes to read. */
import type { JobRecord, Store } from '@crawlkit/store';
import type { CrawlRules } from '@crawlkit/frontier';

import { storedJobOf, type StoredJobEnvelope } from '../codec/records.js';
import { changeStoredJob } from './stored-job-writes.js';

/** What the crawl could not read of its robots.txt and sitemaps, and why: its status says it. */
export type FrontierNotes = Pick<StoredJobEnvelope, 'robotsUnavailable' | 'robotsTruncatedAt' | 'sitemapsUnreadable'>;

/** Keeps the crawl's `FrontierNotes` in its stored job (replacing those of an earlier start), for its status. */
export function noteFrontier(store: Store, jobId: string, notes: FrontierNotes): Promise<void> {
  return changeStoredJob(store, jobId, ({ robotsUnavailable, robotsTruncatedAt, sitemapsUnreadable, ...stored }) => {
    const kept = { robotsUnavailable, robotsTruncatedAt, sitemapsUnreadable };
    const given = {
      robotsUnavailable: undefined,
      robotsTruncatedAt: undefined,
      sitemapsUnreadable: undefined,
      ...notes,
    };
    return JSON.stringify(kept) === JSON.stringify(given) ? undefined : { ...stored, ...notes };
  });
}

/**
 * The seed's landing (`StoredJobEnvelope.seedLanded`) as one planner of the crawl knows it. The planner that fetches
 * the seed writes it before the seed's links are queued; any other planner reads the job again before it judges a
 * page's links, until it has seen it. So a page found through the seed (queued after the write) is never judged by a
 * planner that has not seen the landing, whatever its process cached of the job: the read costs one job read a page
 * only for pages fetched before the seed, and one per planner after it. A crawl stored before the rule (neither
 * `seedLanded` nor `seedAwaited`) awaits nothing and reads nothing.
 */
export interface SeedLanding {
  /** Whether this planner knows where the seed led: its rules follow it. */
  readonly known: boolean;
  /** Reads the job again when the landing is not known yet; resolves to true when it was learnt now. */
  learn(): Promise<boolean>;
  /** Records where the seed led (`url`, after redirects), once its page is fetched; the rules follow it. */
  land(url: string): Promise<void>;
}

export function seedLanding(store: Store, job: JobRecord, rules: CrawlRules): SeedLanding {
  let known = false;
  const follow = (url: string | undefined) => {
    if (url === undefined) return false;
    rules.rebase(url);
    known = true;
    return true;
  };
  const stored = storedJobOf(job);
  // A crawl stored before the rule awaits nothing: its landing was never written, and will not be.
  if (!follow(stored.seedLanded) && stored.seedAwaited !== true) known = true;
  return {
    get known() {
      return known;
    },
    async learn() {
      if (known) return false;
      const current = await store.jobs.get(job.id);
      return current !== undefined && follow(storedJobOf(current).seedLanded);
    },
    async land(url) {
      follow(url);
      await changeStoredJob(store, job.id, (stored) =>
        stored.seedLanded === url ? undefined : { ...stored, seedAwaited: undefined, seedLanded: url },
      );
    },
  };
}

/** The rules that refuse a link as a crawl trap: the crawl's status names the first link each refused. */
export const TRAP_REASONS = new Set(['URL_TOO_LONG', 'REPEATING_PATH']);

/** Adds to the crawl's stored job the first link refused for each trap reason in `skipped` not there yet. */
export function noteTrapsSkipped(
  store: Store,
  jobId: string,
  skipped: readonly { reason: string; url: string }[],
): Promise<void> {
  return changeStoredJob(store, jobId, (stored) => {
    const known = stored.trapsSkipped ?? [];
    const added = skipped.filter((s) => !known.some((k) => k.reason === s.reason));
    return added.length ? { ...stored, trapsSkipped: [...known, ...added] } : undefined;
  });
}

/** Notes in the crawl's stored job the first page past its seed that landed on a sign-in page, unless one is there. */
export function noteSignInRedirect(store: Store, jobId: string, url: string): Promise<void> {
  return changeStoredJob(store, jobId, (stored) =>
    stored.signInRedirected !== undefined ? undefined : { ...stored, signInRedirected: url },
  );
}

/** The drivers (`JobTasks`) that noted their job's limit already: each notes it once. */
const limitNoted = new WeakSet<object>();

/**
 * Notes in the crawl's stored job that its `limit` cut off a link it found (`limitReached`), for its status to say
 * the limit, not the site, ended it. `offered` are the tasks handed to `tasks.add` and `added` those it took. Left-out
 * tasks of a job holding fewer than `limit` tasks were known already (one read settles it, for a page linking to pages
 * other workers queued); at the limit, one whose key the job never held was cut. Once a driver.
 */
export async function noteLimitCut(
  store: Store,
  jobId: string,
  limit: number,
  driver: object,
  offered: readonly { key: string }[],
  added: readonly { key: string }[],
): Promise<void> {
  if (added.length === offered.length || limitNoted.has(driver)) return;
  const { queued, active, done, failed } = await store.tasks.counts(jobId);
  if (queued + active + done + failed < limit) return;
  const taken = new Set(added.map((task) => task.key));
  const left = offered.filter((task) => !taken.has(task.key));
  const held = await Promise.all(left.map((task) => store.tasks.has(jobId, task.key)));
  if (held.every(Boolean)) return;
  limitNoted.add(driver);
  await changeStoredJob(store, jobId, (stored) =>
    stored.limitReached ? undefined : { ...stored, limitReached: true },
  );
}
