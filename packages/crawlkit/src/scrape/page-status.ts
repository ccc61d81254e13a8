/** The statuses of a page that no longer exists. */
const GONE: ReadonlySet<number> = new Set([404, 410]);

/**
 * Whether the site says the page no longer exists (404, 410): its stored copies go, and a search no longer finds it by
 * the text it had. Any other error (a 500, a 403, a 429) may pass, and says nothing of the page's content.
 */
export function pageGone(status: number): boolean {
  return GONE.has(status);
}

/**
 * Whether a scrape reads as a page gone for change tracking (`changeStatus: 'removed'`) and a crawl's change feed: the
 * site said so by its status (`pageGone`), or answered 2xx with a page that says so itself (`softNotFound`: the
 * soft-404 warning of `soft-not-found.ts`, a title or a sentence). A redirect to another page is not: it stays
 * `changed`, with its warning.
 */
export function scrapeReadsGone(status: number, softNotFound: boolean | undefined): boolean {
  return pageGone(status) || softNotFound === true;
}
