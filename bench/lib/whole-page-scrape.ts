// One scrape of a served dataset page as the whole-page row makes it (markdown, no cache), for the heap and GC
// helpers that loop over the 12 largest pages (`main-heap-per-scrape.ts`, `worker-heap.ts`).
import type { Crawlkit } from 'crawlkit';

/** Scrapes `${base}/${id}.html` into markdown with `crawlkit`, the whole page unless `onlyMainContent`; throws on failure. */
export function wholePageScraper(
  crawlkit: Crawlkit,
  base: string,
  onlyMainContent = false,
): (id: string) => Promise<void> {
  return async (id) => {
    const doc = await crawlkit.scrape({
      url: `${base}/${id}.html`,
      formats: ['markdown'],
      onlyMainContent,
      maxAge: 0,
      storeInCache: false,
    });
    if (!doc.success) throw new Error(`scrape of ${id} failed`);
  };
}
