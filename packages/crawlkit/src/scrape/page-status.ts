/** The statuses of a page that no longer exists. */
const GONE: ReadonlySet<number> = new Set([404, 410]);

/**
 * Whether the site says the page no longer exists (404, 410): its stored copies go, and a search no longer finds it by
 * the text it had. Any other error (a 500, a 403, a 429) may pass, and says nothing of the page's content.
 */
export function pageGone(status: number): boolean {
  return GONE.has(status);
}
