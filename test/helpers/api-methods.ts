/** The `Crawlkit` methods whose first argument is a job id (or a `crawlkit://` status address). */
export const JOB_ID_METHODS = [
  'getCrawlStatus',
  'cancelCrawl',
  'getCrawlErrors',
  'getBatchScrapeStatus',
  'cancelBatchScrape',
  'getBatchScrapeErrors',
  'waitForJob',
  'resumeJob',
] as const;
