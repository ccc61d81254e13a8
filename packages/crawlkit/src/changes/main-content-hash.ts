/**
 * A main content's hash on the thread that asks for it, when its extraction came without one (`contentHash`, made in
 * the extraction worker for a crawl's pages): an extraction kept in the page cache, one made before the rule.
 */
import { LRUCache } from 'lru-cache';

import type { Extraction } from '../extraction/extraction.js';
import { contentHash } from './content-hash.js';

/**
 * The content hashes of recent main contents, by the markdown string itself: a copy a 304 confirms serves a copy of
 * the memoised extraction whose markdown is the same string, hashed once (V8 keeps a string's own hash, so the lookup
 * does not read the text again). A copy whose kept extraction came with its hash is not looked up here at all
 * (`ScrapeState.contentHash`): a string just decoded would be read whole to find its key.
 */
const hashes = new LRUCache<string, string>({ max: 2_000 });

/** `contentHash(markdown)`, once per main content seen recently here. */
export function mainContentHash(markdown: string): string {
  let known = hashes.get(markdown);
  if (known === undefined) {
    known = contentHash(markdown);
    hashes.set(markdown, known);
  }
  return known;
}

/**
 * The hash of `extraction`'s main content: made with it in the worker, else `kept` (the hash stored with a kept
 * extraction), else `mainContentHash` of its markdown.
 */
export function extractionContentHash(extraction: Pick<Extraction, 'markdown' | 'contentHash'>, kept?: string): string {
  return extraction.contentHash ?? kept ?? mainContentHash(extraction.markdown ?? '');
}
