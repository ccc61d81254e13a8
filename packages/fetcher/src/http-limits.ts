/**
 * `@crawlkit/fetcher/http-limits`: the HTTP limits' defaults, alone, for a command line's help to say them without
 * loading the fetcher (undici, puppeteer-core).
 */
export { DEFAULT_HTTP_LIMITS } from './http/limits.js';
