import type { CountryProfile } from '../browser/countries.js';
import type { FetchResult, HttpRequest } from '../http/types.js';
import type { PageRequest, PageResult } from '../page.js';
import type { UrlPolicy } from '../policy/url-policy.js';
import type { RecordedSource } from '../warc/exchange.js';
import type { RenderVerdict } from '../render/judge.js';

/** How one attempt reaches the site: its proxy mode and, when one is configured, the proxy. */
export interface Attempt {
  mode: 'basic' | 'stealth';
  proxy?: string | undefined;
}

/** One page load as the fetcher hands it to an engine, with everything decided. */
export interface EngineCall<V extends RenderVerdict = RenderVerdict> {
  request: PageRequest<V>;
  /** When the request's budget ends, as a `performance.now()` time: every attempt shares it. */
  deadline: number;
  attempt: Attempt;
  country?: CountryProfile | undefined;
  /** Why this engine serves the page: the `engineReason` of its result (an engine may refine it). */
  reason: string;
  /** The fetcher's URL policy: an engine that does not fetch through the HTTP engine or the browser applies it. */
  urlPolicy: Readonly<UrlPolicy>;
  /** Serve every request of the page from recordings instead of the network (the replay engine rendering a page). */
  serve?: RecordedSource;
}

/** The fetcher's built-in engines, given to the engines of `FetcherOptions.engines` that render through them. */
export interface BuiltinEngines {
  browser: PageEngine;
}

/**
 * An engine that loads pages: HTTP, the browser and the `auto` strategy over both are built into the `Fetcher`;
 * others (a cache-only engine, a replay engine) are given to it in `FetcherOptions.engines` and chosen by a
 * request's `engine`. An engine that fails rejects with a `FetchError` or `BrowserError`.
 */
export interface PageEngine {
  /** The name a request's `engine` chooses it by. */
  readonly name: string;
  /** Whether it honours the browser-only options (actions, screenshot, waitFor, mobile, location). */
  readonly renders: boolean;
  fetch<V extends RenderVerdict>(call: EngineCall<V>): Promise<PageResult<V>>;
  /**
   * Answers the fetcher's plain requests (robots.txt, sitemaps) when this engine is the fetcher's `engine`: an engine
   * that must not reach the network (replay) keeps them off it too. Without it they go over HTTP.
   */
  fetchPlain?(request: HttpRequest, urlPolicy: Readonly<UrlPolicy>): Promise<FetchResult>;
  /** Called once by the fetcher that was given this engine, with its built-in engines. */
  bind?(engines: BuiltinEngines): void;
  /** Frees what it holds (connections, browsers). Idempotent. */
  close(): Promise<void>;
}

/** Milliseconds left before `deadline` (a `performance.now()` time), at least 1. */
export function remaining(deadline: number): number {
  return Math.max(1, Math.round(deadline - performance.now()));
}
