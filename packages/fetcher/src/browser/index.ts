// Public surface of the browser engine, the pool and the engine choice (issue 4).
export { Fetcher, NOT_SETTLED_WARNING } from '../fetcher.js';
export type { BrowserOptions, EngineName, FetcherOptions, PageRequest, PageResult, ProxyMode } from '../fetcher.js';
export type { ProxyConfig } from '../proxy-choice.js';
export { blockedReason, browserReasonForOptions } from '../engine-choice.js';
export type { BrowserPoolOptions, BrowserPoolStats } from './browser-pool.js';
export type { SmartWaitSettings } from './smart-wait.js';
export { resolveChromiumPath, CHROMIUM_ENV } from './chromium-path.js';
export { CHROMIUM_FLAGS, PROFILE_PREFIX } from './chromium-flags.js';
export { countryProfile, isCountryCode } from './countries.js';
export type { CountryProfile } from './countries.js';
export { BrowserError, isBrowserError } from './errors.js';
export type { BrowserErrorCode, BrowserErrorOptions } from './errors.js';
