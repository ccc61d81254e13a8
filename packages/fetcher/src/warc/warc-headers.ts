/** The WARC header of a response record that starts a page of the job (`WarcWriter.add`'s `page`). */
export const PAGE_HEADER = 'WARC-Crawlkit-Page';
/** The WARC header naming the engine that recorded a response (`http`, `browser`): replay renders the latter. */
export const ENGINE_HEADER = 'WARC-Crawlkit-Engine';
/**
 * The WARC header of a response that asks to be asked again later (a 429 or 503): a crawl fetches the URL again, and
 * the later response of the URL, recorded too, is the one replay serves.
 */
export const RETRY_LATER_HEADER = 'WARC-Crawlkit-Retry-Later';
