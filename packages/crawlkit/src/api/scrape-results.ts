import type { Store } from '@crawlkit/store';

import { keptScrapeCodec } from '../codec/records.js';
import { INVALID_JOB_ID, parseJobReference } from '../jobs/job-address.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

/**
 * Kept scrapes live in the page store under keys of their own (`scrape:<id>`), which no cache key can be (those
 * start with a URL): they count in the cache's size cap, the expiry sweep deletes them once past `jobResultTtlMs`
 * (`deleteExpiredScrapes`), and a zero-data-retention scrape is never kept.
 */
const KEPT_PREFIX = 'scrape:';
const keyOf = (id: string) => `${KEPT_PREFIX}${id}`;

/** Keeps a scrape's document for `GET /v2/scrape/:id` (`ScrapeCallOptions.keepResult`). */
export async function keepScrape(store: Store, document: Document, tenant: string | undefined): Promise<void> {
  const id = document.metadata.scrapeId;
  if (id === undefined) return;
  const value = keptScrapeCodec.encode({ ...(tenant !== undefined ? { tenant } : {}), document });
  await store.pages.put({ key: keyOf(id), url: keyOf(id), cachedAt: Date.now(), value });
}

/**
 * Deletes the kept scrapes older than `ttlMs`, which `GET /v2/scrape/:id` no longer answers: the expiry sweep's part
 * (before, they stayed until the page cache's size cap evicted them, taking its room from pages). A store without
 * `pages.deleteByUrlPrefix` keeps them so. Returns how many were deleted.
 */
export async function deleteExpiredScrapes(store: Store, ttlMs: number, now = Date.now()): Promise<number> {
  return (await store.pages.deleteByUrlPrefix?.(KEPT_PREFIX, now - ttlMs)) ?? 0;
}

const notFound = (): ErrorResponse => ({ success: false, code: 'JOB_NOT_FOUND', error: 'Job not found.' });

/**
 * `GET /v2/scrape/:id`: the kept document of a scrape younger than `ttlMs`, for its tenant (another tenant's is not
 * found, as upstream answers).
 */
export async function getKeptScrape(
  store: Store,
  id: string,
  ttlMs: number,
  tenant: string | undefined,
): Promise<ScrapeResponse | ErrorResponse> {
  const ref = parseJobReference(id);
  if (!ref) return { success: false, code: 'BAD_REQUEST', error: INVALID_JOB_ID };
  const entry = await store.pages.get(keyOf(ref.id), { maxAge: ttlMs });
  if (!entry) return notFound();
  const kept = keptScrapeCodec.decode(entry.value);
  if (tenant !== undefined && kept.tenant !== undefined && kept.tenant !== tenant) return notFound();
  return { success: true, data: kept.document };
}
