import { BrowserEngine, type BrowserFetchRequest, type BrowserFetchResult } from './browser/browser-engine.js';
import { BrowserPool, type BrowserPoolOptions, type BrowserPoolStats } from './browser/browser-pool.js';
import type { SmartWaitSettings } from './browser/smart-wait.js';
import { countryProfile, type CountryProfile } from './browser/countries.js';
import { isBrowserError } from './browser/errors.js';
import { blockedReason, browserOnlyFeatures, browserReasonForOptions } from './engine-choice.js';
import { FetchError } from './errors.js';
import { DEFAULT_TIMEOUT_MS, HttpEngine } from './http/http-engine.js';
import type { FetchResult, HttpEngineOptions, HttpRequest } from './http/types.js';
import type { EngineName, PageRequest, PageResult } from './page.js';
import type { UrlPolicy } from './policy/url-policy.js';
import { ProxyRotation, type ProxyConfig } from './proxy-choice.js';
import { judgeRendering, renderingGain, type RenderJudge, type RenderVerdict } from './render/judge.js';

export type { EngineName, PageRequest, PageResult, ProxyMode } from './page.js';

/** Settings of a `Fetcher`. */
export interface FetcherOptions {
  /**
   * Engine for every request unless a request forces its own.
   * @default 'auto'
   */
  engine?: EngineName;
  /** HTTP engine settings (limits, user agent, DNS lookup). Its `urlPolicy` is replaced by the one below when set. */
  http?: HttpEngineOptions;
  /** Browser settings: Chromium path and flags, pool sizes, smart wait, capture directory, filter lists. */
  browser?: BrowserOptions;
  /** Proxy servers for `proxy: basic | stealth | auto` and `location.country`. */
  proxies?: ProxyConfig;
  /**
   * Which URLs and addresses may be fetched, by both engines (the browser checks every request it makes).
   * @default the `http.urlPolicy`, else everything allowed
   */
  urlPolicy?: UrlPolicy;
  /**
   * Let `proxy: 'auto'` retry with stealth when the site refuses (403, challenge page; 429 only through a stealth
   * proxy, i.e. from another address).
   * @default true
   */
  autoStealth?: boolean;
  /**
   * Decides whether a page fetched over HTTP needs the browser (in `auto`), and whether a page served over HTTP looks
   * client-rendered. It must be a function of the page alone (it may run on another thread).
   * @default judgeRendering
   */
  renderJudge?: RenderJudge;
}

/** Browser settings of `FetcherOptions`. */
export interface BrowserOptions extends BrowserPoolOptions {
  /**
   * Longest the smart wait (network idle and DOM idle) waits for a page to settle, in milliseconds; a page that
   * never settles is captured as it is then, with a `warnings` entry that says so (`NOT_SETTLED_WARNING`).
   * @default 10000
   */
  smartWaitMaxMs?: number;
  /**
   * Quiet periods of the smart wait, in milliseconds: `networkIdleMs` (no request in flight, default 500),
   * `networkQuietMs` (at most two long-lived requests and no activity, default 1500), `domIdleMs` (no DOM mutation,
   * default 300), `pollMs` (default 100).
   * @default {}
   */
  smartWait?: SmartWaitSettings;
  /**
   * Adblock Plus / uBlock filter list files that replace the default list (Ghostery's tracker database:
   * advertising, analytics and consent-manager domains) for `blockAds`.
   * @default undefined (the default list)
   */
  adblockLists?: string[];
}

/** The warning of a rendered page captured before it settled: its requests or DOM changes went on past the wait. */
export const NOT_SETTLED_WARNING =
  'The page was still loading when it was captured: its requests or DOM changes went on past the wait for it to ' +
  "settle (browser.smartWaitMaxMs, at most the scrape's timeout), so its content may be incomplete. `waitFor`, a " +
  '`wait` action for a selector or a longer `timeout` give it more time.';

const BROWSER_UNAVAILABLE = new Set(['BROWSER_NOT_FOUND', 'BROWSER_LAUNCH_FAILED']);

interface Attempt {
  mode: 'basic' | 'stealth';
  proxy: string | undefined;
}

/**
 * The page fetcher: chooses HTTP or the browser per request (and says why), applies proxies and `proxy: 'auto'`'s
 * stealth retry, and owns the browser pool.
 */
export class Fetcher {
  readonly #engine: EngineName;
  readonly #http: HttpEngine;
  readonly #pool: BrowserPool;
  readonly #browser: BrowserEngine;
  readonly #proxies: ProxyRotation;
  readonly #proxyLoopback: boolean;
  readonly #autoStealth: boolean;
  readonly #policy: UrlPolicy;
  readonly #judge: RenderJudge;
  #closed = false;

  constructor(options: FetcherOptions = {}) {
    this.#engine = options.engine ?? 'auto';
    const policy = options.urlPolicy ?? options.http?.urlPolicy ?? {};
    this.#policy = policy;
    this.#http = new HttpEngine({ ...options.http, urlPolicy: policy });
    this.#pool = new BrowserPool(options.browser, {
      policy,
      ...(options.http?.lookup ? { lookup: options.http.lookup } : {}),
    });
    this.#browser = new BrowserEngine(this.#pool, {
      policy,
      smartWaitMaxMs: options.browser?.smartWaitMaxMs ?? 10_000,
      maxContentChars: this.#http.limits.maxBodyBytes,
      ...(options.browser?.screenshotDir ? { screenshotDir: options.browser.screenshotDir } : {}),
      ...(options.browser?.adblockLists ? { adblockLists: options.browser.adblockLists } : {}),
      ...(options.browser?.smartWait ? { smartWait: options.browser.smartWait } : {}),
    });
    this.#proxies = new ProxyRotation(options.proxies);
    this.#proxyLoopback = options.proxies?.proxyLoopback ?? false;
    this.#autoStealth = options.autoStealth ?? true;
    this.#judge = options.renderJudge ?? judgeRendering;
  }

  /** The HTTP engine behind `fetch()`: plain requests (robots, sitemaps, webhooks) share its connection pools. */
  get http(): HttpEngine {
    return this.#http;
  }

  /** The URL policy both engines apply (for callers that list URLs without fetching them, like `map`). */
  get urlPolicy(): Readonly<UrlPolicy> {
    return this.#policy;
  }

  /** The browser pool's counters (launches, pids, profiles, pages open). */
  get browserStats(): BrowserPoolStats {
    return this.#pool.stats;
  }

  /**
   * Fetches one page with the engine the request needs.
   * @throws FetchError (network, policy, timeout, abort, invalid request), BrowserError (browser needed but
   * unavailable, crash, site error), ActionError (failing action).
   */
  async fetch(request: PageRequest): Promise<PageResult> {
    if (this.#closed) throw new FetchError('FETCHER_CLOSED', 'This fetcher is closed.');
    const country = this.#country(request);
    const mode = request.proxy === 'enhanced' ? 'stealth' : (request.proxy ?? 'auto');
    // One budget for every attempt (HTTP, its browser retry, the stealth retry): each gets what is left.
    const deadline = performance.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);

    const firstPlan = this.#plan(mode === 'stealth' ? 'stealth' : 'basic', country);
    const first = await this.#attempt(request, deadline, country, firstPlan);
    if (mode !== 'auto' || !this.#autoStealth) return first;
    const blocked = blockedReason(first);
    if (!blocked) return first;
    const retry = this.#plan('stealth', country);
    // A rate limit is about the address: asking again at once from the same one only adds to the site's load.
    if (blocked === 'blocked:429' && retry.proxy === firstPlan.proxy) return first;
    try {
      const second = await this.#attempt(request, deadline, country, retry, blocked);
      return blockedReason(second) ? first : second;
    } catch (error) {
      if (isBrowserError(error) && BROWSER_UNAVAILABLE.has(error.code)) return first;
      throw error;
    }
  }

  /**
   * A plain HTTP request (robots.txt, sitemaps, link discovery) through the same proxies as the pages' basic
   * attempts (`proxies.basic`, in rotation; `request.proxy` wins), under the same URL policy.
   */
  fetchPlain(request: HttpRequest): Promise<FetchResult> {
    if (this.#closed) return Promise.reject(new FetchError('FETCHER_CLOSED', 'This fetcher is closed.'));
    const proxy = request.proxy ?? this.#proxies.pick('basic');
    return this.#http.fetch(proxy ? { ...request, proxy } : request);
  }

  /** Closes the HTTP connection pools and every browser (no Chromium process survives it). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#http.close(), this.#pool.close()]);
  }

  #country(request: PageRequest): CountryProfile | undefined {
    const code = request.location?.country;
    if (code === undefined) return undefined;
    const profile = countryProfile(code);
    if (!profile) {
      throw new FetchError(
        'SCRAPE_INVALID_REQUEST',
        'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.',
        { url: request.url },
      );
    }
    return profile;
  }

  #plan(mode: 'basic' | 'stealth', country: CountryProfile | undefined): Attempt {
    return { mode, proxy: this.#proxies.pick(mode, country?.code) };
  }

  async #attempt(
    request: PageRequest,
    deadline: number,
    country: CountryProfile | undefined,
    attempt: Attempt,
    blocked?: string,
  ): Promise<PageResult> {
    const engine = request.engine ?? this.#engine;
    const optionsReason = browserReasonForOptions(request);
    if (engine === 'http') {
      const result = await this.#viaHttp(request, deadline, attempt, 'engine:http');
      const unsupported = browserOnlyFeatures(request);
      if (unsupported.length) result.unsupportedFeatures = unsupported;
      const jsReason = (await this.#verdict(request, result)).reason;
      if (jsReason) result.clientRendered = jsReason;
      return result;
    }
    if (engine === 'browser' || optionsReason || attempt.mode === 'stealth') {
      const reason = blocked ?? (engine === 'browser' ? 'engine:browser' : (optionsReason ?? 'options:stealth'));
      return this.#viaBrowser(request, deadline, country, attempt, reason);
    }
    const renders = request.renderIfNeeded !== false;
    let learned = renders && request.hostNeeds === 'browser';
    if (learned && !request.checkEngines) {
      try {
        return await this.#viaBrowser(request, deadline, country, attempt, 'js-required:host');
      } catch (error) {
        if (!isBrowserError(error) || !BROWSER_UNAVAILABLE.has(error.code)) throw error;
        learned = false; // no browser: the page takes the HTTP path
      }
    }
    const plain = await this.#viaHttp(request, deadline, attempt, 'http:static');
    const verdict = await this.#verdict(request, plain);
    const jsReason = verdict.reason;
    if (!jsReason && !learned) {
      if (verdict.contentChars !== undefined) plain.engineEvidence = 'http';
      return plain;
    }
    if (jsReason) plain.clientRendered = jsReason;
    if (!renders) return plain;
    let rendered: PageResult;
    try {
      rendered = await this.#viaBrowser(request, deadline, country, attempt, jsReason ?? 'js-required:host');
    } catch (error) {
      if (isBrowserError(error) && BROWSER_UNAVAILABLE.has(error.code)) {
        if (jsReason) plain.engineReason = `${jsReason}+browser-unavailable`;
        return plain;
      }
      throw error;
    }
    const evidence = renderingGain(verdict, await this.#verdict(request, rendered));
    if (evidence) rendered.engineEvidence = evidence;
    return rendered;
  }

  /** The render judge's verdict on `result` (fetched for `request`). */
  async #verdict(request: PageRequest, result: PageResult): Promise<RenderVerdict> {
    const page = {
      url: withFragment(result.url, request.url),
      status: result.status,
      contentType: result.contentType,
      headers: result.headers,
      ...(result.text !== undefined ? { text: result.text } : {}),
      ...(result.undecodedText ? { undecoded: { body: result.body, ...result.undecodedText } } : {}),
    };
    const judge = request.renderJudge ?? this.#judge;
    return judge(page, request.signal ? { signal: request.signal } : {});
  }

  async #viaHttp(request: PageRequest, deadline: number, attempt: Attempt, reason: string): Promise<PageResult> {
    const httpRequest: HttpRequest = { url: request.url };
    if (request.headers) httpRequest.headers = request.headers;
    httpRequest.timeoutMs = remaining(deadline);
    if (request.skipTlsVerification !== undefined) httpRequest.skipTlsVerification = request.skipTlsVerification;
    if (request.signal) httpRequest.signal = request.signal;
    if (request.deferDecoding) httpRequest.deferDecoding = true;
    if (attempt.proxy) httpRequest.proxy = attempt.proxy;
    const result = await this.#http.fetch(httpRequest);
    return { ...result, engineReason: reason, proxyUsed: attempt.mode };
  }

  async #viaBrowser(
    request: PageRequest,
    deadline: number,
    country: CountryProfile | undefined,
    attempt: Attempt,
    reason: string,
  ): Promise<PageResult> {
    const browserRequest: BrowserFetchRequest = {
      url: request.url,
      timeoutMs: remaining(deadline),
      skipTlsVerification: request.skipTlsVerification ?? true,
      mobile: request.mobile ?? false,
      waitFor: request.waitFor ?? 0,
      blockAds: request.blockAds ?? true,
      stealth: attempt.mode === 'stealth',
      proxyLoopback: this.#proxyLoopback,
    };
    if (request.headers) browserRequest.headers = request.headers;
    if (request.signal) browserRequest.signal = request.signal;
    if (country) browserRequest.country = country;
    if (request.location?.languages?.length) browserRequest.languages = request.location.languages;
    if (request.screenshot) browserRequest.screenshot = request.screenshot;
    if (request.actions?.length) browserRequest.actions = request.actions;
    if (attempt.proxy) browserRequest.proxy = attempt.proxy;
    let result: BrowserFetchResult;
    try {
      result = await this.#browser.fetch(browserRequest);
    } catch (error) {
      if (isBrowserError(error) && error.code === 'SCRAPE_DOWNLOAD') {
        const file = await this.#viaHttp(request, deadline, attempt, 'download');
        const unsupported = browserOnlyFeatures(request);
        if (unsupported.length) file.unsupportedFeatures = unsupported;
        return file;
      }
      throw error;
    }
    const { consent: _consent, settled, ...page } = result;
    if (!settled) page.warnings = [...(page.warnings ?? []), NOT_SETTLED_WARNING];
    return { ...page, engineReason: reason, proxyUsed: attempt.mode };
  }
}

/** `url` with the fragment of `requested` (a redirect keeps the fragment the client asked for). */
function withFragment(url: string, requested: string): string {
  const at = requested.indexOf('#');
  if (at < 0 || url.includes('#')) return url;
  return url + requested.slice(at);
}

/** Milliseconds left before `deadline` (a `performance.now()` time), at least 1. */
function remaining(deadline: number): number {
  return Math.max(1, Math.round(deadline - performance.now()));
}
