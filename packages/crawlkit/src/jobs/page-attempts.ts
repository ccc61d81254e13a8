import type { PageScrapeOutcome } from '../scrape/types.js';

/**
 * A page's `timeout` bounds all the attempts a job makes of it (a page fetched again after a dropped connection or a
 * 429/503): an attempt is charged from when its work starts (after its slots) to its end, and a dropped connection's
 * back-off whole; a 429/503's wait is the host's rest the site asked for, which holds every page of the host, and is
 * not charged (as the host's slot is not). A retry starts only when the time left allows, and it gets only that.
 */
export interface PageTime {
  /** The page's `timeout`. */
  timeoutMs: number;
  /** What the earlier attempts took of it, their back-off waits included. */
  spentMs: number;
}

/**
 * The page's time once this attempt (`outcome.pageMs`) and the back-off before the next (`waitMs`) are charged, or
 * undefined when the next attempt would start past the page's `timeout` (no time left for it).
 */
export function chargeRetry(time: PageTime, outcome: PageScrapeOutcome, waitMs: number): number | undefined {
  const spentMs = time.spentMs + (outcome.pageMs ?? 0) + waitMs;
  return spentMs < time.timeoutMs ? spentMs : undefined;
}

/** What the page's attempts took, in seconds, for the messages. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/**
 * The failure of a page whose connection dropped on its last attempt with no time left for another: a timeout
 * (`SCRAPE_TIMEOUT`) saying how many attempts were made and what the last one met.
 */
export function outOfTimeFailure(
  time: PageTime,
  attempts: number,
  outcome: Extract<PageScrapeOutcome, { success: false }>,
  waitMs: number,
): PageScrapeOutcome {
  const taken = time.spentMs + (outcome.pageMs ?? 0);
  const error =
    `Scrape timed out after ${time.timeoutMs} ms between attempts: ${attempts} attempt(s) took ${seconds(taken)} s ` +
    `of it, and the back-off before another (${seconds(waitMs)} s) would pass it; the last met: ` +
    `${outcome.error.error.replace(/\.$/, '')}. Raise \`timeout\` to give a crawl or batch time to ask again.`;
  return { success: false, error: { success: false, code: 'SCRAPE_TIMEOUT', error }, status: 408 };
}

/**
 * How many asks a page kept as its last 429/503 answer had, when they took its `timeout`: the words after "The page
 * answered 429 Too Many Requests to each of" (`errorPageNote`).
 */
export function outOfTimeAttempts(time: PageTime, attempts: number): string {
  return (
    `${attempts} attempt(s), which took the page's \`timeout\` of ${time.timeoutMs} ms and left no time to ask ` +
    'again'
  );
}
