/**
 * The hash of a page's main content: what a crawl's change feed compares with the last run, and what a crawl folds a
 * page into its canonical by (the two pages hold the same text). Made in the extraction worker beside the content
 * (`Extraction.contentHash`, `foldHash`), and here on the main thread for an extraction that came without them
 * (`main-content-hash.ts`).
 */
import { hash } from 'node:crypto';

/** The hash the feed compares and a crawl folds by: the main content as markdown, with runs of whitespace collapsed. */
export function contentHash(markdown: string): string {
  return hash('sha256', markdown.replace(/\s+/g, ' ').trim(), 'hex');
}

/**
 * What a fetch of the same text changes in it: a counter (`1,204 views`, `12 replies`) and a relative time (`5 minutes
 * ago`). Only these: a price or a page number is the page's own content, and two pages differing in one are two pages.
 */
const REFETCH_CHANGES = [
  /\b\d[\d,.]*\s*[km]?\s+(?:views?|replies|reply|likes?|comments?|reactions?|posts?|members?|watchers?)\b/gi,
  /\b(?:\d+|an?|one)\s+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b/gi,
];

/**
 * The hash a crawl folds a page into its canonical by: `contentHash` of the main content without what a fetch of the
 * same text changes (`REFETCH_CHANGES`), so that a forum post's URL serving its topic with "N views" folds though the
 * count moved between the two fetches. Change tracking keeps `contentHash`: a moved count is a change there.
 */
export function foldHash(markdown: string): string {
  return contentHash(REFETCH_CHANGES.reduce((text, phrase) => text.replace(phrase, '#'), markdown));
}

/**
 * `foldHash` for a page naming a canonical, the only pages a crawl compares by the fold; undefined for the others,
 * which cost no second hash.
 */
export function canonicalFoldHash(markdown: string, canonical: string | undefined): string | undefined {
  return canonical ? foldHash(markdown) : undefined;
}
