import type { SitemapReader } from '@crawlkit/frontier';

import type { ExtractionPool } from './pool.js';

/** Time a worker may spend reading one sitemap (50 MiB of XML takes 1–2 s); past it the sitemap is skipped. */
const SITEMAP_LIMIT_MS = 30_000;

/**
 * The frontier's sitemap reader for an engine: each sitemap is decompressed, decoded and parsed in the extraction
 * pool, so a site serving sitemaps of 50 MiB never holds up the event loop (leases, webhooks, other pages).
 */
export function sitemapReader(pool: ExtractionPool): SitemapReader {
  return async (sitemap, signal) => {
    const doc = await pool.run(
      { kind: 'sitemap', ...sitemap },
      { runLimitMs: SITEMAP_LIMIT_MS, ...(signal ? { signal } : {}) },
    );
    return doc ?? undefined;
  };
}
