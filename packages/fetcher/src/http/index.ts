// Public surface of the HTTP engine (issue 2).
export { HttpEngine, DEFAULT_USER_AGENT, DEFAULT_TIMEOUT_MS } from './http-engine.js';
export { DEFAULT_HTTP_LIMITS } from './limits.js';
export { decodeText, type DecodedText } from './charset.js';
export { sniffBinary } from './content-type.js';
export type { FetchResult, HttpEngineOptions, HttpLimits, HttpRequest, UndecodedText } from './types.js';
