import type { Store } from '@crawlkit/store';

import { INVALID_JOB_ID, parseJobReference } from '../jobs/job-address.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

/**
 * Kept scrapes live in the page store under keys of their own (`scrape:<id>`), which no cache key can be (those
 * start with a URL): they expire and are pruned as cache entries are, and a zero-data-retention scrape is never
 * kept.
 */
const keyOf = (id: string) => `scrape:${id}`;

interface KeptScrape {
  tenant?: string;
  document: Document;
}

/** Keeps a scrape's document for `GET /v2/scrape/:id` (`ScrapeCallOptions.keepResult`). */
export async function keepScrape(store: Store, document: Document, tenant: string | undefined): Promise<void> {
  const id = document.metadata.scrapeId;
  if (id === undefined) return;
  const kept: KeptScrape = { ...(tenant !== undefined ? { tenant } : {}), document };
  await store.pages.put({ key: keyOf(id), url: keyOf(id), cachedAt: Date.now(), value: JSON.stringify(kept) });
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
  const kept = JSON.parse(entry.value) as KeptScrape;
  if (tenant !== undefined && kept.tenant !== undefined && kept.tenant !== tenant) return notFound();
  return { success: true, data: kept.document };
}
