import { MAX_TIMER_MS } from '@crawlkit/fetcher';
import { z } from 'zod';

/**
 * A request's `timeout` in milliseconds (scrape, batch, crawl's scrapeOptions, map, search): a whole number above 0.
 * Upstream's schema sets no maximum (reference §3.3); crawlkit's is the longest time Node keeps a timer, since a
 * longer one fired at once: a map with `timeout: 3000000000` timed out before it started.
 */
export const timeoutSchema = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, {
    message: `timeout is at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest time Node.js keeps a timer)`,
  });
