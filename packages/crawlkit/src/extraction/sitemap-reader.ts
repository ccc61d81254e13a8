import { readSitemap, type SitemapReader } from '@crawlkit/frontier';

import type { ExtractionPool } from './pool.js';

/** Time a worker may spend reading one sitemap (50 MiB of XML takes 1–2 s); past it the sitemap is skipped. */
const SITEMAP_LIMIT_MS = 30_000;

/**
 * The largest sitemap read on the calling thread: plain XML (never gzip, whose bytes may inflate a thousandfold) of
 * at most 64 KiB, about 1 ms of parsing here (a sitemap index, the sitemap of a site of a few hundred pages). Sent to
 * a worker, it would start the extraction threads (both load the extractor) in a recrawl that needs no extraction.
 */
export const INLINE_SITEMAP_BYTES = 64 * 1024;

/**
 * The frontier's sitemap reader for an engine: each sitemap past `INLINE_SITEMAP_BYTES` (or gzipped) is decompressed,
 * decoded and parsed in the extraction pool, so a site serving sitemaps of 50 MiB never holds up the event loop
 * (leases, webhooks, other pages).
 */
export function sitemapReader(pool: ExtractionPool): SitemapReader {
  return async (sitemap, signal) => {
    const { body } = sitemap;
    const gzipped = body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
    if (!gzipped && body.length <= INLINE_SITEMAP_BYTES) return readSitemap(sitemap);
    const doc = await pool.run(
      { kind: 'sitemap', ...sitemap },
      { runLimitMs: SITEMAP_LIMIT_MS, ...(signal ? { signal } : {}) },
    );
    return doc ?? undefined;
  };
}
