/**
 * `@crawlkit/store/search-terms`: a text's terms counted as the search indexes count them, for a thread that extracts
 * pages (crawlkit's worker), without the drivers.
 */
export { countTerms } from './search/entry.js';
export type { CountedTerms, SearchText } from './contracts/search.js';
