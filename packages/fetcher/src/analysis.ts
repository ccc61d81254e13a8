/**
 * `@crawlkit/fetcher/analysis`: reading a fetched page without the network. Decoding its bytes, judging whether it
 * needs the browser, the URL policy check, a URL's credentials hidden (for the CLI, which names a URL before it
 * fetches anything). The entry that extraction worker threads load: it pulls in none of the engines (undici,
 * puppeteer, proxies), which would add a quarter of a second of CPU to every thread's start.
 */
export { decodeText } from './http/charset.js';
export type { DecodedText } from './http/charset.js';
export type { UndecodedText } from './http/types.js';
export { embeddedContent, judgeRendering, pageSignals } from './render/index.js';
export type { EmbeddedSource, JudgedPage, RenderVerdict } from './render/index.js';
export { checkUrlAgainstPolicy, isAllowedByPolicy, redactUrl, type UrlPolicy } from './policy/url-policy.js';
