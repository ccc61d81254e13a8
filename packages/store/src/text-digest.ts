/**
 * The digest of a page's text, in a module of its own (`@crawlkit/store/text-digest`): crawlkit's extraction workers
 * hash the text they make without loading the store.
 */
import { hash } from 'node:crypto';

/** Characters of a page's text indexed: about 30 printed pages. */
export const MAX_TEXT = 100_000;

/**
 * The SHA-256 (hex) of a page's text as the index keeps it (its first `MAX_TEXT` characters). The SQLite index keeps
 * each text once by its digest; a caller that has the text off the thread that writes the store (crawlkit's
 * extraction worker) hashes it there and passes it as `SearchText.textDigest`. crypto.hash (one shot) is ~8x faster
 * than a Hash object's updates on a 16 KB page.
 */
export function searchTextDigest(text: string): string {
  return hash('sha256', text.slice(0, MAX_TEXT), 'hex');
}
