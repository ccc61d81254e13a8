import type * as CrawlkitModule from 'crawlkit';

/**
 * The crawlkit a bench measures: `CK_BENCH_CRAWLKIT` (another build's `packages/crawlkit/dist/index.js`, for
 * side-by-side runs) or the workspace's own. An empty value counts as unset (`import('')` would never settle).
 */
export const crawlkitEntry: string = process.env['CK_BENCH_CRAWLKIT'] || 'crawlkit';

/** Imports the crawlkit a bench measures. */
export const loadCrawlkit = (): Promise<typeof CrawlkitModule> =>
  import(crawlkitEntry) as Promise<typeof CrawlkitModule>;
