/** The WARC header of a response record that starts a page of the job (`WarcWriter.add`'s `page`). */
export const PAGE_HEADER = 'WARC-Crawlkit-Page';
/** The WARC header naming the engine that recorded a response (`http`, `browser`): replay renders the latter. */
export const ENGINE_HEADER = 'WARC-Crawlkit-Engine';
