import type { JobRecord } from '@crawlkit/cache';
import { loadRobots } from '@crawlkit/frontier';

import type { EngineContext } from '../context.js';
import { CRAWLER_USER_AGENT, frontierFetch } from '../jobs/crawl-planner.js';
import type { StoredJob } from '../jobs/job-manager.js';
import type { BatchScrapeRequest, CrawlRequest } from '../v2/jobs.js';

/** The spacing a job wants between two requests to one host. */
export interface HostDelays {
  /** Milliseconds between requests to the URL's host; 0 for none. */
  forUrl(url: string): number;
}

const NONE: HostDelays = { forUrl: () => 0 };

/**
 * A crawl's per-host spacing: its `delay`, and the seed host's robots.txt `Crawl-delay` (the larger wins), as the
 * in-process planner applies them. Batches have none.
 */
export async function hostDelays(
  ctx: EngineContext,
  kind: JobRecord['kind'],
  stored: StoredJob<CrawlRequest | BatchScrapeRequest>['request'],
): Promise<HostDelays> {
  if (kind !== 'crawl') return NONE;
  const request = stored as CrawlRequest;
  const base = request.delay !== undefined ? request.delay * 1000 : 0;
  const seed = new URL(request.url);
  let seedDelay = base;
  if (!request.ignoreRobotsTxt) {
    const robots = await loadRobots(
      seed.origin,
      frontierFetch(ctx),
      request.robotsUserAgent ?? CRAWLER_USER_AGENT,
    ).catch(() => undefined);
    const crawlDelay = robots?.crawlDelay();
    if (crawlDelay !== undefined) seedDelay = Math.max(base, crawlDelay * 1000);
  }
  if (base === 0 && seedDelay === 0) return NONE;
  const seedHost = seed.host.toLowerCase();
  return {
    forUrl(url) {
      try {
        return new URL(url).host.toLowerCase() === seedHost ? seedDelay : base;
      } catch {
        return base;
      }
    },
  };
}
