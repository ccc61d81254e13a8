import { createHash } from 'node:crypto';

import type { Store } from '@crawlkit/store';
import { LRUCache } from 'lru-cache';

import { extractionContentHash } from '../changes/main-content-hash.js';
import { VERSION } from '../cli/version.js';
import { storedExtractionCodec } from '../codec/records.js';
import type { Extraction, ExtractionSettings } from '../extraction/extraction.js';
import type { ScrapeState } from './scrape-state.js';

/** The digests of the settings in use, by their JSON: a crawl's pages share a few settings (one sha256 each). */
const digests = new LRUCache<string, string>({ max: 256 });

/**
 * Where the extraction of a page with validators is kept: an entry of the page cache beside the page's, per extraction
 * settings (deleted with the page's URL, pruned like any entry). A copy a 304 confirms in a new process is then
 * served without extracting it again, as the in-process memo serves it in the process that fetched it. Not for
 * `rawHtml` (the page twice), an explained page (`DEBUG=crawlkit:explain`) nor for an extraction the budget cut. The
 * key holds crawlkit's `version`: after an upgrade, whose extraction may differ, a confirmed copy is extracted again
 * instead of serving the old one.
 */
export function storedExtractionKey(
  state: ScrapeState,
  settings: ExtractionSettings,
  version: string = VERSION,
): string | undefined {
  const { store, page, cache } = state;
  if (
    !store ||
    !cache.writable ||
    page?.fetchedAt === undefined ||
    !page.cachePolicy ||
    settings.rawHtml ||
    settings.explain
  ) {
    return undefined;
  }
  // The hashes asked with the extraction are not kept with it (`keptPart`): the same entry with or without them.
  const { hashContent: _hashes, ...kept } = settings;
  const identity = JSON.stringify({ version, settings: kept });
  let digest = digests.get(identity);
  if (digest === undefined) {
    digest = createHash('sha256').update(identity).digest('hex').slice(0, 16);
    digests.set(identity, digest);
  }
  return `${cache.key}|extraction=${digest}`;
}

/**
 * The kept extraction of this version of the page and the content hash kept with it, or undefined (none, another
 * version, or unreadable).
 */
export async function readStoredExtraction(
  store: Store,
  key: string,
  fetchedAt: number,
): Promise<{ extraction: Extraction; contentHash?: string } | undefined> {
  const entry = await store.pages.get(key, { once: true });
  if (!entry) return undefined;
  try {
    const stored = storedExtractionCodec.decode(entry.value);
    return stored.fetchedAt === fetchedAt ? stored : undefined;
  } catch {
    return undefined; // a damaged entry is extracted again and overwritten
  }
}

export function writeStoredExtraction(
  state: ScrapeState,
  key: string,
  fetchedAt: number,
  extraction: Extraction,
): Promise<void> {
  if (extraction.cut) return Promise.resolve();
  // Hashed here once, for the change feed's stage too.
  const contentHash = extractionContentHash(extraction);
  state.contentHash = contentHash;
  const value = storedExtractionCodec.encode({ fetchedAt, contentHash, extraction: keptPart(extraction) });
  return state.store!.pages.put({ key, url: state.normalizedUrl, cachedAt: Date.now(), value });
}

/**
 * What is kept of an extraction: all of it but its search text when its digest comes with it, and that text's
 * counted terms. That text is its markdown's (`markdownText`), made again only if the store reads it (a text its
 * index does not hold yet), and was half of each kept entry, read and parsed for every page a recrawl confirms. Its
 * hashes are not kept in it either: the content hash is kept beside it, and the fold's is made again when read.
 */
function keptPart(extraction: Extraction): Extraction {
  const { contentHash: _hash, foldHash: _fold, ...unhashed } = extraction;
  if (unhashed.searchText === undefined || unhashed.searchTextDigest === undefined) return unhashed;
  const { searchText: _made, searchTerms: _counted, ...kept } = unhashed;
  return kept;
}
