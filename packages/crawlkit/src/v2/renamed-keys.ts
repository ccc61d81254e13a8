/**
 * Keys a body brings from v0 or v1 (an old SDK, LangChain's older loader examples) or from a Crawlee crawler, which v2
 * has under another name: the unknown-key message names the v2 option to use. Only keys at the body's top level; a
 * key v2 has under no name is told as unknown only.
 */
const RENAMED_KEYS: Readonly<Record<string, string>> = {
  pageOptions:
    "v0's pageOptions are scrape options at the body's top level (a crawl's scrapeOptions): onlyMainContent, " +
    'includeTags, waitFor…',
  crawlerOptions:
    "v0's crawlerOptions are crawl options at the body's top level: includes is includePaths, excludes is " +
    'excludePaths, maxDepth is maxDiscoveryDepth',
  extractorOptions: "v0's extractorOptions are a json format: formats: [{ type: 'json', prompt, schema }]",
  maxDepth: "v1's maxDepth is maxDiscoveryDepth (a crawl's depth by discovery order)",
  allowBackwardLinks: "v1's allowBackwardLinks is crawlEntireDomain",
  ignoreSitemap: "v1's ignoreSitemap is sitemap: 'skip'",
  maxRequestsPerCrawl: "Crawlee's maxRequestsPerCrawl is limit",
  maxCrawlDepth: "Crawlee's maxCrawlDepth is maxDiscoveryDepth",
  globs: "Crawlee's globs are includePaths, regular expressions on the URL's path (/docs/** is ^/docs/)",
  exclude: "Crawlee's exclude is excludePaths, regular expressions on the URL's path",
  startUrls: "a crawl starts from one url; several URLs without discovery are a batchScrape's urls",
};

/** What v2 calls the unknown top-level `keys` it has under another name, as a sentence per key ('' when none). */
export function renamedKeysHint(keys: readonly string[]): string {
  const told = keys.flatMap((key) => (Object.hasOwn(RENAMED_KEYS, key) ? [RENAMED_KEYS[key]!] : []));
  return told.length ? `: ${told.join('; ')}` : '';
}
