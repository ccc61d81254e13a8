/** The statuses of an answer that asks to be asked again later: 429 Too Many Requests, 503 Service Unavailable. */
const RETRY_LATER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Whether an answer asks to be asked again later. Such an answer is not the page: a crawl fetches the page again
 * (`@crawlkit/frontier`'s `isRetried`), and a recording keeps the later answer too, which replay serves
 * (`@crawlkit/fetcher`'s WARC writer).
 */
export function asksRetryLater(status: number): boolean {
  return RETRY_LATER_STATUSES.has(status);
}
