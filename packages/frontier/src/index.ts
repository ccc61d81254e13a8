export {
  canonicalUrl,
  decodePercent,
  isRouteFragment,
  normalizeParsedUrl,
  normalizeUrl,
  urlPermutations,
} from './normalize.js';
export type { NormalizeOptions } from './normalize.js';
export {
  createCrawlRules,
  createPathPatterns,
  DEFAULT_MAX_PATH_SEGMENT_REPEATS,
  DEFAULT_MAX_URL_LENGTH,
  hasRepeatingSegments,
  inSeedScope,
  isFileUrl,
  urlDepth,
  validateCrawlPatterns,
} from './rules.js';
export type {
  CrawlRules,
  CrawlRulesOptions,
  DenialReason,
  PathPatternOptions,
  PathPatterns,
  RuleAdmission,
  RuleVerdict,
} from './rules.js';
export { loadRobots, MAX_ROBOTS_BYTES, parseRobots } from './robots.js';
export type { Robots } from './robots.js';
export { discoverSitemaps, discoverSitemapUrls, parseSitemap, readSitemap, sitemapCandidates } from './sitemaps.js';
export type {
  DiscoverSitemapOptions,
  SitemapBody,
  SitemapDocument,
  SitemapListing,
  SitemapReader,
} from './sitemaps.js';
export { HostPoliteness, isRetried, parseRetryAfter, retryDelay } from './politeness.js';
export type { HostPolitenessOptions, RetriedFetch } from './politeness.js';
export type { FetchText } from './fetch-text.js';
